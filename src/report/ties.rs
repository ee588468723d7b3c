//! The best or the worst of a ranked list, as a sentence names it: values that print alike
//! are a tie, and a sentence that named one of them would pick it by the order of a sort.

/// The items of `ranked` (best first, or worst first) that print as its first does.
pub fn tied<I: IntoIterator>(ranked: I, shown: impl Fn(&I::Item) -> String) -> Vec<I::Item> {
    let mut items = ranked.into_iter();
    let Some(first) = items.next() else {
        return Vec::new();
    };
    let printed = shown(&first);
    let mut out = vec![first];
    out.extend(items.take_while(|x| shown(x) == printed));
    out
}

/// Names joined for a sentence: `a`, `a and b`, `a, b and c`.
pub fn and(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_print_alike_tie_and_the_rest_do_not() {
        let ranked = [
            ("a", 0.709910012087),
            ("b", 0.7099100120869),
            ("c", 0.70951),
            ("d", 0.7094),
            ("e", 0.69),
        ];
        let shown = |x: &&(&str, f64)| format!("{:.1}", 100.0 * x.1);
        let best: Vec<&str> = tied(ranked.iter(), shown).iter().map(|x| x.0).collect();
        assert_eq!(best, ["a", "b", "c"]);
        let worst: Vec<&str> = tied(ranked.iter().rev(), shown)
            .iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(worst, ["e"]);
        assert!(tied(ranked[..0].iter(), shown).is_empty());
    }

    #[test]
    fn names_read_as_a_list() {
        let names = |n: &[&str]| and(&n.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&[]), "");
        assert_eq!(names(&["a"]), "a");
        assert_eq!(names(&["a", "b"]), "a and b");
        assert_eq!(names(&["a", "b", "c"]), "a, b and c");
    }
}
