//! Axes: round tick values, their labels, and names nudged apart along an axis.

/// Round tick values covering `[low, high]`: steps of 1, 2 or 5 × 10ⁿ, about `count` of them.
pub fn nice_ticks(low: f64, high: f64, count: usize) -> Vec<f64> {
    let span = (high - low).abs().max(1e-12);
    let raw = span / count.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    // The round step whose tick count comes closest to the one asked for.
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .min_by(|a, b| {
            let off = |s: &f64| (span / s - count as f64).abs();
            off(a).total_cmp(&off(b))
        })
        .expect("four candidates");
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    // Multiples of the step, computed from integers so that 0.30000000000000004 never shows.
    (first..=last)
        .map(|i| (i as f64 * step * 1e9).round() / 1e9 + 0.0)
        .collect()
}

/// A tick label with as many decimals as the step needs.
pub(super) fn tick_label(value: f64, step: f64, suffix: &str, signed: bool) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let value = value + 0.0;
    if signed && value != 0.0 {
        format!("{value:+.decimals$}{suffix}")
    } else {
        format!("{value:.decimals$}{suffix}")
    }
}

/// Moves the labels `wanted` (`(index, y)`) at least `gap` apart within `[top, bottom]`,
/// each as little as it can (past `bottom` only where there is no room for all of them).
pub(super) fn spread(wanted: &mut [(usize, f64)], gap: f64, top: f64, bottom: f64) {
    wanted.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 1..wanted.len() {
        wanted[i].1 = wanted[i].1.max(wanted[i - 1].1 + gap);
    }
    if let Some(last) = wanted.last_mut() {
        last.1 = last.1.min(bottom);
    }
    for i in (0..wanted.len().saturating_sub(1)).rev() {
        wanted[i].1 = wanted[i].1.min(wanted[i + 1].1 - gap);
    }
    if let Some(first) = wanted.first_mut() {
        first.1 = first.1.max(top);
    }
    // Where the first met the top, the rest move down after it: several ending at the top
    // (lines that all reach 100%) keep their distance below it.
    for i in 1..wanted.len() {
        wanted[i].1 = wanted[i].1.max(wanted[i - 1].1 + gap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 100.0, 10),
            (0..=10).map(|i| f64::from(i) * 10.0).collect::<Vec<_>>()
        );
        // The rule-variant chart once had ticks at ±10.76.
        assert_eq!(
            nice_ticks(-10.76, 10.76, 4),
            vec![-10.0, -5.0, 0.0, 5.0, 10.0]
        );
        assert_eq!(nice_ticks(-0.3, 0.3, 4), vec![-0.2, 0.0, 0.2]);
        assert_eq!(tick_label(-0.2, 0.2, "", true), "-0.2");
        assert_eq!(tick_label(0.0, 0.2, "", true), "0.0");
        assert_eq!(tick_label(40.0, 10.0, "%", false), "40%");
    }

    #[test]
    fn spread_labels_keep_their_distance_and_stay_in_bounds() {
        let mut ends = vec![(0, 100.0), (1, 101.0), (2, 102.0), (3, 300.0)];
        spread(&mut ends, 13.0, 50.0, 290.0);
        let ys: Vec<f64> = ends.iter().map(|e| e.1).collect();
        for w in ys.windows(2) {
            assert!(w[1] - w[0] >= 13.0 - 1e-9, "{ys:?}");
        }
        assert!(ys.iter().all(|y| (50.0..=290.0).contains(y)), "{ys:?}");
        // Lines that all end at the top (100%): the labels go down from it, apart.
        let mut top = vec![(0, 50.0), (1, 50.0), (2, 50.0)];
        spread(&mut top, 13.0, 54.0, 290.0);
        let ys: Vec<f64> = top.iter().map(|e| e.1).collect();
        assert_eq!(ys, vec![54.0, 67.0, 80.0]);
    }
}
