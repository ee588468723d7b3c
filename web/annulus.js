'use strict';
// The explorer's view of the Annulus operation challenge (the game selector's second game):
// its controls built from the engine's own list of rules keys (`{"game":"annulus","op":
// "meta"}`), success probability against the number of players for optimal play and each
// chosen strategy, a sentence for the current design, and the sweep of one rules key. It
// shares the page's engine, workers, charts, status line and mode tabs with Purple Raven's
// view (app.js); its state and its elements (ids starting `a-`) are its own, so Purple
// Raven's view, numbers and links are untouched by it.

// The number of players in the sentence: the middle of the page's axis.
const A_SENTENCE_PLAYERS = 2;

let ameta = null;

const adefaults = () => ({
  preset: 'normal',
  rules: {}, // key -> value, where it differs from the preset
  strategies: ameta ? [...ameta.defaults] : [],
  files: [], // {name, text}
  axis: { key: 'target', from: '2', to: '12' },
  sweepPlayers: '2',
});
let astate = adefaults();

// The current job's answers.
let aview = null;
let asweep = null;

function aparam(key) {
  return ameta.params.find((p) => p.key === key);
}

// The value of `key` under a preset: the first preset's (the printed game's) unless the
// preset changes it.
function apresetValue(preset, key) {
  const p = ameta.presets.find((q) => q.name === preset);
  const change = p && p.changes.find((c) => c.startsWith(`${key}=`));
  return change ? change.slice(key.length + 1) : aparam(key).printed;
}

function acurrent(key) {
  return key in astate.rules ? astate.rules[key] : apresetValue(astate.preset, key);
}

// The `--rule KEY=VALUE` overrides, in the engine's order of the keys (unknown keys last, for
// the engine to name).
function aoverrides() {
  const known = ameta.params.map((p) => p.key);
  const keys = Object.keys(astate.rules).sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib);
  });
  return keys.map((k) => `${k}=${astate.rules[k]}`);
}

function adropPresetValues() {
  for (const key of Object.keys(astate.rules)) {
    if (aparam(key) && astate.rules[key] === apresetValue(astate.preset, key)) delete astate.rules[key];
  }
}

function asources() {
  const sources = astate.strategies.map((name) => ({ name }));
  for (const f of astate.files) sources.push({ name: f.name, origin: `${f.name}.toml`, text: f.text });
  return sources;
}

function amethods(sources) {
  return [{ method: 'optimal', name: 'optimal' }].concat(sources.map((s) => ({ method: 'exact', name: s.name })));
}

// `1 player`, `2 players`.
const playersText = (n) => `${n} player${Number(n) === 1 ? '' : 's'}`;

// ---------------------------------------------------------------- the URL

// The view after `#`, in the command line's spelling: `game=annulus`, the preset, each
// override as KEY=VALUE, the strategies (`strategy=none` for optimal play alone), files, and
// in the sweep mode `param=KEY=FROM..TO` and `players=…`.
function annulusHash() {
  const q = new URLSearchParams();
  q.append('game', 'annulus');
  if (state.mode !== 'curves') q.append('mode', state.mode);
  if (astate.preset !== ameta.presets[0].name) q.append('preset', astate.preset);
  for (const o of aoverrides()) {
    const i = o.indexOf('=');
    q.append(o.slice(0, i), o.slice(i + 1));
  }
  for (const name of astate.strategies) q.append('strategy', name);
  if (astate.strategies.length === 0) q.append('strategy', 'none');
  for (const f of astate.files) q.append('file', `${f.name}~${btoa(unescape(encodeURIComponent(f.text)))}`);
  if (state.mode === 'sweep') {
    q.append('param', aaxisSpelling());
    q.append('players', astate.sweepPlayers);
  }
  return q.toString().replace(/%3D/g, '=').replace(/%2C/g, ',');
}

function aaxisValues() {
  const p = aparam(astate.axis.key);
  if (!p) return [];
  let i = p.values.indexOf(astate.axis.from);
  let j = p.values.indexOf(astate.axis.to);
  if (i < 0) i = 0;
  if (j < 0) j = p.values.length - 1;
  if (i > j) [i, j] = [j, i];
  return p.values.slice(i, j + 1);
}

// `KEY=FROM..TO` for numbers, `KEY=V1,V2,…` otherwise, as `explore --param` takes it.
function aaxisSpelling() {
  const values = aaxisValues();
  const numeric = values.every((v) => /^\d+$/.test(v));
  return numeric && values.length > 2
    ? `${astate.axis.key}=${values[0]}..${values[values.length - 1]}`
    : `${astate.axis.key}=${values.join(',')}`;
}

// Reads an Annulus link (its `game=annulus` already seen).
function readAnnulusUrl(q) {
  astate = adefaults();
  const strategies = [];
  for (const [k, v] of q) {
    if (k === 'game') continue;
    if (k === 'mode') state.mode = v === 'sweep' ? 'sweep' : 'curves';
    else if (k === 'preset') astate.preset = v;
    else if (k === 'strategy') strategies.push(v);
    else if (k === 'file') {
      const i = v.indexOf('~');
      try {
        astate.files.push({ name: v.slice(0, i), text: decodeURIComponent(escape(atob(v.slice(i + 1)))) });
      } catch (e) {
        showError('a-strategy-error', `file in the link is unreadable: ${e.message}`);
      }
    } else if (k === 'param') {
      const i = v.indexOf('=');
      const list = v.slice(i + 1);
      const range = /^(\d+)\.\.(\d+)$/.exec(list);
      const values = range ? [range[1], range[2]] : list.split(',');
      astate.axis = { key: v.slice(0, i), from: values[0], to: values[values.length - 1] };
    } else if (k === 'players') astate.sweepPlayers = v;
    else astate.rules[k] = v; // a rules key; the engine judges it
  }
  if (strategies.length) astate.strategies = strategies.filter((s) => s !== 'none');
  adropPresetValues();
}

// ---------------------------------------------------------------- controls

function buildAnnulusControls() {
  const preset = $('a-preset');
  for (const p of ameta.presets) preset.append(el('option', { value: p.name, text: p.name }));
  preset.addEventListener('change', () => {
    astate.preset = preset.value;
    adropPresetValues();
    changed();
  });
  $('a-reset-all').addEventListener('click', () => {
    astate.preset = ameta.presets[0].name;
    astate.rules = {};
    changed();
  });
  for (const p of ameta.params) {
    const id = `a-rule-${p.key}`;
    const row = el('div', { class: 'a-setting', 'data-key': p.key, title: `${p.ruling}: ${p.meaning}` });
    const label = el('label', { for: id, text: p.key });
    let control;
    if (p.values.length <= 2) {
      control = el('div', { class: 'choices', role: 'radiogroup', id });
      for (const v of p.values) {
        const rid = `${id}-${v}`;
        const radio = el('input', { type: 'radio', name: id, id: rid, value: v });
        radio.addEventListener('change', () => asetRule(p.key, v));
        const mark = v === p.printed ? ' (printed)' : '';
        control.append(el('span', {}, [radio, el('label', { for: rid, text: `${v}${mark}` })]));
      }
      label.removeAttribute('for');
      label.id = `${id}-label`;
      control.setAttribute('aria-labelledby', label.id);
    } else {
      const printedAt = p.values.indexOf(p.printed);
      const ticks = el('datalist', { id: `${id}-ticks` }, [el('option', { value: String(printedAt) })]);
      const range = el('input', {
        type: 'range', id, min: '0', max: String(p.values.length - 1), step: '1', list: `${id}-ticks`,
        'aria-describedby': `${id}-printed`,
      });
      range.addEventListener('input', () => asetRule(p.key, p.values[Number(range.value)]));
      control = el('span', { class: 'slider' }, [range, ticks, el('span', { class: 'value', id: `${id}-value` })]);
    }
    const reset = el('button', { type: 'button', class: 'reset', 'aria-label': `Reset ${p.key}`, text: 'reset' });
    reset.addEventListener('click', () => {
      delete astate.rules[p.key];
      changed();
    });
    const printedNote = el('span', { class: 'printed', id: `${id}-printed`, text: `printed: ${p.printed}` });
    row.append(label, el('span', { class: 'control' }, [control, p.values.length > 2 ? printedNote : '']), reset);
    $('a-params').append(row);
  }
  const list = $('a-strategies');
  for (const s of ameta.strategies) {
    const id = `a-strategy-${s.name}`;
    const box = el('input', { type: 'checkbox', id, value: s.name });
    box.addEventListener('change', () => {
      if (box.checked) astate.strategies.push(s.name);
      else astate.strategies = astate.strategies.filter((n) => n !== s.name);
      changed();
    });
    list.append(el('div', { class: 'row', title: s.description }, [box, el('label', { for: id, text: s.name })]));
  }
  $('a-strategy-add').addEventListener('click', () => {
    const name = $('a-strategy-name').value.trim() || 'mine';
    // A file's numbers are told apart from a bundled strategy's by name.
    if (name === 'optimal' || ameta.strategies.some((s) => s.name === name)) {
      showError('a-strategy-error', `'${name}' is the name of a strategy of the page: name the file otherwise`);
      return;
    }
    astate.files = astate.files.filter((f) => f.name !== name);
    astate.files.push({ name, text: $('a-strategy-text').value });
    changed();
  });
  const key = $('a-axis-key');
  for (const p of ameta.params) key.append(el('option', { value: p.key, text: p.key }));
  key.addEventListener('change', () => {
    const p = aparam(key.value);
    astate.axis = { key: p.key, from: p.values[0], to: p.values[p.values.length - 1] };
    changed();
  });
  for (const end of ['from', 'to']) {
    $(`a-axis-${end}`).addEventListener('change', (e) => { astate.axis[end] = e.target.value; changed(); });
  }
  $('a-sweep-players').addEventListener('change', (e) => { astate.sweepPlayers = e.target.value.trim(); changed(); });
}

function asetRule(key, value) {
  if (value === apresetValue(astate.preset, key)) delete astate.rules[key];
  else astate.rules[key] = value;
  changed();
}

// Puts the state into the Annulus controls.
function syncAnnulusControls() {
  $('a-preset').value = astate.preset;
  for (const p of ameta.params) {
    const id = `a-rule-${p.key}`;
    const v = acurrent(p.key);
    document.querySelector(`#a-params .a-setting[data-key="${p.key}"]`).classList.toggle('changed', v !== p.printed);
    if (p.values.length <= 2) {
      for (const value of p.values) $(`${id}-${value}`).checked = value === v;
    } else {
      const i = p.values.indexOf(v);
      if (i >= 0) $(id).value = String(i);
      $(id).setAttribute('aria-valuetext', v);
      $(`${id}-value`).textContent = v;
    }
  }
  for (const s of ameta.strategies) $(`a-strategy-${s.name}`).checked = astate.strategies.includes(s.name);
  const files = $('a-files');
  files.replaceChildren();
  for (const f of astate.files) {
    const remove = el('button', { type: 'button', text: `remove ${f.name}`, 'aria-label': `Remove strategy ${f.name}` });
    remove.addEventListener('click', () => {
      astate.files = astate.files.filter((g) => g !== f);
      changed();
    });
    files.append(el('div', { class: 'row' }, [el('span', { text: `file: ${f.name}` }), remove]));
  }
  $('a-axis-key').value = astate.axis.key;
  const p = aparam(astate.axis.key);
  for (const end of ['from', 'to']) {
    const select = $(`a-axis-${end}`);
    select.replaceChildren();
    if (p) {
      for (const v of p.values) select.append(el('option', { value: v, text: v }));
      select.value = astate.axis[end];
    }
  }
  $('a-sweep-players').value = astate.sweepPlayers;
}

// Which game's controls and views are shown, and the words that name the game.
function showGame() {
  const annulus = state.game === 'annulus';
  $('game').value = state.game;
  $('raven-controls').hidden = annulus;
  $('annulus-controls').hidden = !annulus;
  $('curves-view').hidden = annulus || state.mode !== 'curves';
  $('sweep-view').hidden = annulus || state.mode !== 'sweep';
  $('annulus-curves-view').hidden = !annulus || state.mode !== 'curves';
  $('annulus-sweep-view').hidden = !annulus || state.mode !== 'sweep';
  $('game-sub').textContent = annulus ? 'the Annulus operation challenge, exact and optimal' : 'Operation Purple Raven, exact and optimal';
  $('mode-curves').textContent = annulus ? 'Success by players' : 'Win probability by stealth';
  $('mode-curves').setAttribute('aria-pressed', String(state.mode === 'curves'));
  $('mode-sweep').setAttribute('aria-pressed', String(state.mode === 'sweep'));
  document.title = `raven explorer — ${annulus ? 'the Annulus operation challenge' : 'Operation Purple Raven'}`;
}

// ---------------------------------------------------------------- computing

function arulesError(m) {
  showError('a-rules-error', m.message);
  for (const p of ameta.params) {
    if (m.message.includes(`${p.key}=`) || m.message.includes(`'${p.key}'`)) {
      document.querySelector(`#a-params .a-setting[data-key="${p.key}"]`).classList.add('invalid');
    }
  }
}

function aclearErrors() {
  for (const id of ['a-rules-error', 'a-strategy-error', 'a-sweep-error']) showError(id, '');
  for (const row of document.querySelectorAll('#a-params .a-setting.invalid')) row.classList.remove('invalid');
}

function aerror(m) {
  if (m.field === 'rules') arulesError(m);
  else if (m.field === 'strategy') showError('a-strategy-error', m.message);
  else showError(state.mode === 'sweep' ? 'a-sweep-error' : 'a-rules-error', m.message);
}

// Optimal play solved at 1, 2 and 3 players on one worker and the strategies evaluated on
// the other, each as `raven --game annulus solve` and `exact` compute them.
function computeAnnulusCurves(started) {
  const sources = asources();
  const players = ameta.players;
  const job = ++jobCounter;
  const timing = { job, kind: 'curves', game: 'annulus', started, first: null, curves: null, done: null };
  window.ravenTimings.push(timing);
  aview = {
    job, sources, players, values: new Map(), errors: [], csv: null, rules: [astate.preset, ...aoverrides()],
    quality: newQuality(job, { 'data-players': A_SENTENCE_PLAYERS }),
  };
  document.body.dataset.state = 'computing';
  aclearErrors();
  renderAnnulusCurves();
  setStatus(`Computing optimal play and ${sources.length} strateg${sources.length === 1 ? 'y' : 'ies'} at ${players.join(', ')} players…`, 0, 1);
  const rules = { game: 'annulus', preset: astate.preset, rules: aoverrides() };
  const lanes = [[{ op: 'solve', ...rules, players }]];
  if (sources.length) lanes.push([{ op: 'exact', ...rules, strategies: sources, players }]);
  const total = players.length * (1 + sources.length);
  runLanes(LANES > 1 ? lanes : [lanes.flat()], (m) => {
    if (aview.job !== job) return;
    if (m.type === 'value') {
      aview.values.set(`${m.method}|${m.strategy}|${m.players}`, m);
      if (timing.first === null) timing.first = performance.now();
      setStatus(`Computing… ${aview.values.size} of ${total} numbers`, aview.values.size, total);
    } else if (m.type === 'error') {
      aview.errors.push(m);
      aerror(m);
    }
    renderAnnulusCurves();
  }, () => {
    if (aview.job !== job) return;
    timing.curves = performance.now();
    if (aview.errors.length) return afinish(timing, started);
    // The CSV, written by the engine as `raven --game annulus solve --out` writes it: per
    // number of players optimal play, then each strategy with its regret.
    const results = [];
    for (const n of players) {
      const optimal = aview.values.get(`optimal|optimal|${n}`);
      for (const m of amethods(sources)) {
        const v = aview.values.get(`${m.method}|${m.name}|${n}`);
        results.push({ strategy: m.name, method: m.method, players: n, figures: v.figures, regret: m.method === 'optimal' ? 0 : optimal.start - v.win });
      }
    }
    runLanes([[{ op: 'csv', ...rules, results }]], (m) => {
      if (aview.job !== job) return;
      if (m.type === 'csv') aview.csv = m.text;
      else if (m.type === 'error') {
        aview.errors.push(m);
        aerror(m);
      }
    }, () => {
      if (aview.job === job) afinish(timing, started);
    });
  });
}

function afinish(timing, started) {
  timing.done = performance.now();
  document.body.dataset.state = aview.errors.length ? 'error' : 'done';
  setStatus(aview.errors.length ? 'Stopped: see the message' : `Done in ${((timing.done - started) / 1000).toFixed(2)} s`, 1, 1);
  renderAnnulusCurves();
  if (!aview.errors.length) acomputeQuality();
}

// After the view's own numbers, "Is it a good game?" with the sentence's number of players,
// as `raven --game annulus quality` finds it: each strategy a request of its own (a solve
// each, which two players make quick), dealt out to the lanes.
function acomputeQuality() {
  const { job } = aview;
  const rules = { game: 'annulus', preset: astate.preset, rules: aoverrides() };
  const requests = [{ name: 'optimal' }, ...aview.sources].map((source) => ({
    op: 'quality', ...rules, strategies: [source], players: [A_SENTENCE_PLAYERS],
  }));
  // One challenge of the first strategy shown (optimal play's if none), as the chance saw it.
  requests.push({ op: 'ledger', ...rules, strategy: aview.sources[0] || { name: 'optimal' }, players: A_SENTENCE_PLAYERS });
  qualityStarted(aview.quality, 'annulus');
  arenderQuality();
  runLanes(deal(requests), (m) => {
    if (aview.job !== job || !['quality', 'ledger', 'error'].includes(m.type)) return;
    qualityMessage(aview.quality, m);
    arenderQuality();
  }, () => {
    if (aview.job !== job) return;
    qualityFinished(aview.quality);
    arenderQuality();
  });
}

function arenderQuality() {
  qualityPanel('a-', aview.quality, amethods(aview.sources), `With ${playersText(A_SENTENCE_PLAYERS)}`, 'adjustments');
  ledgerPanel('a-', aview.quality, `with ${playersText(A_SENTENCE_PLAYERS)}`);
}

function acell(tag, m, players, value, extra = {}) {
  const attrs = { 'data-method': m.method, 'data-strategy': m.name, 'data-players': String(players), ...extra };
  if (!value) return el(tag, { ...attrs, class: 'pending', text: '…' });
  return el(tag, { ...attrs, 'data-value': String(value.win), text: percent(value.win) });
}

function renderAnnulusCurves() {
  const v = aview;
  if (!v) return;
  const methods = amethods(v.sources);
  const rulesText = v.rules.join(' ');
  $('a-rules-shown').textContent = rulesText;
  // The sentence: each method's success at the sentence's number of players.
  const answer = $('a-answer');
  answer.replaceChildren();
  const at = A_SENTENCE_PLAYERS;
  const parts = methods.map((m) => {
    const value = v.values.get(`${m.method}|${m.name}|${at}`);
    const span = el('span', { class: value ? '' : 'pending', 'data-method': m.method, 'data-strategy': m.name, 'data-players': String(at), 'data-value': value ? String(value.win) : null, text: value ? `${(100 * value.win).toFixed(1)}%` : '…' });
    return m.method === 'optimal' ? ['optimal play succeeds ', span] : [`${m.name} `, span];
  });
  const rules = [v.rules[0], ...v.rules.slice(1)].join(', ');
  answer.append(`Under ${rules} with ${playersText(at)}, `);
  parts.forEach((p, i) => {
    if (i > 0) answer.append(i === parts.length - 1 ? ' and ' : ', ');
    answer.append(...p);
  });
  answer.append('.');
  arenderQuality();
  // The chart: success against players.
  const chart = $('a-chart');
  chart.replaceChildren(lineChart({
    title: `Success probability against players (${rulesText})`,
    xLabel: 'players',
    yLabel: 'success probability',
    xs: v.players.map((n) => ({ x: n, label: String(n) })),
    series: methods.map((m, k) => ({
      name: m.name,
      colour: PALETTE[k % PALETTE.length],
      dash: DASHES[k % DASHES.length],
      points: v.players.filter((n) => v.values.has(`${m.method}|${m.name}|${n}`)).map((n) => [n, v.values.get(`${m.method}|${m.name}|${n}`).win]),
    })),
  }));
  // Every number: success, then the losses by cause and the adjustments per challenge.
  const table = $('a-values');
  table.replaceChildren(el('tr', {}, [
    el('th', { scope: 'col', text: 'method' }), el('th', { scope: 'col', text: 'strategy' }),
    ...v.players.map((n) => el('th', { scope: 'col', text: playersText(n) })),
  ]));
  for (const m of methods) {
    table.append(el('tr', {}, [
      el('th', { scope: 'row', text: m.method }), el('th', { scope: 'row', text: m.name }),
      ...v.players.map((n) => acell('td', m, n, v.values.get(`${m.method}|${m.name}|${n}`))),
    ]));
  }
  const losses = $('a-losses');
  const causes = ameta.causes;
  losses.replaceChildren(el('tr', {}, [
    el('th', { scope: 'col', text: 'strategy' }), el('th', { scope: 'col', text: 'players' }),
    ...causes.map((c) => el('th', { scope: 'col', text: `failed: ${c.replace(/_/g, ' ')}` })),
    el('th', { scope: 'col', text: 'adjustments' }),
  ]));
  for (const m of methods) {
    for (const n of v.players) {
      const value = v.values.get(`${m.method}|${m.name}|${n}`);
      const attrs = { 'data-method': m.method, 'data-strategy': m.name, 'data-players': String(n) };
      const figure = (name, x, text) => (value
        ? el('td', { ...attrs, 'data-figure': name, 'data-figure-value': String(x), text })
        : el('td', { class: 'pending', text: '…' }));
      losses.append(el('tr', {}, [
        el('th', { scope: 'row', text: m.name }), el('th', { scope: 'row', text: String(n) }),
        ...causes.map((c) => figure(c, value && value.figures.losses[c], value && percent(value.figures.losses[c]))),
        figure('adjustments', value && value.figures.decisions, value && value.figures.decisions.toFixed(3)),
      ]));
    }
  }
}

// A list of players such as `2` or `1,2,3`, each 1..=3 once; null if it is not one.
function parsePlayers(text) {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  const out = parts.map(Number);
  const ok = parts.length && parts.every((p) => /^\d+$/.test(p)) && new Set(out).size === out.length
    && out.every((n) => n >= 1 && n <= ameta.max_players);
  return ok ? out : null;
}

// `raven --game annulus explore --param KEY=VALUES`'s points, at each number of players.
function computeAnnulusSweep(started) {
  const job = ++jobCounter;
  const timing = { job, kind: 'sweep', game: 'annulus', started, done: null };
  window.ravenTimings.push(timing);
  const sources = asources();
  const values = aaxisValues();
  const players = parsePlayers(astate.sweepPlayers);
  asweep = { job, key: astate.axis.key, values, players: players || [], sources, points: new Map(), csv: null, errors: [], rules: [astate.preset, ...aoverrides()] };
  document.body.dataset.state = 'computing';
  aclearErrors();
  renderAnnulusSweep();
  if (!players) {
    showError('a-sweep-error', `'${astate.sweepPlayers}' is not a list of numbers of players 1..=${ameta.max_players}, none twice`);
    document.body.dataset.state = 'error';
    timing.done = performance.now();
    stopWorkers();
    return;
  }
  setStatus('Sweeping…', 0, 1);
  const request = { op: 'sweep', game: 'annulus', preset: astate.preset, rules: aoverrides(), param: { key: astate.axis.key, values }, strategies: sources, players };
  runLanes([[request]], (m) => {
    if (asweep.job !== job) return;
    if (m.type === 'point') asweep.points.set(`${m.value}|${m.players}`, m);
    else if (m.type === 'progress') setStatus(`Sweeping… point ${m.done} of ${m.total}`, m.done, m.total);
    else if (m.type === 'csv') asweep.csv = m.text;
    else if (m.type === 'error') {
      asweep.errors.push(m);
      aerror(m);
    } else if (m.type === 'done') {
      timing.done = performance.now();
      document.body.dataset.state = asweep.errors.length ? 'error' : 'done';
      setStatus(asweep.errors.length ? 'Stopped: see the message' : `Done in ${((timing.done - started) / 1000).toFixed(2)} s`, 1, 1);
    }
    renderAnnulusSweep();
  });
}

function renderAnnulusSweep() {
  const v = asweep;
  if (!v) return;
  const methods = amethods(v.sources);
  const numeric = v.values.every((x) => /^\d+$/.test(x));
  const xOf = (value) => (numeric ? Number(value) : v.values.indexOf(value));
  const series = [];
  methods.forEach((m, k) => v.players.forEach((n, j) => series.push({
    name: `${m.name} @${playersText(n)}`,
    colour: PALETTE[k % PALETTE.length],
    dash: DASHES[(k + j) % DASHES.length],
    points: v.values.filter((x) => v.points.has(`${x}|${n}`)).map((x) => [xOf(x), v.points.get(`${x}|${n}`).wins[k]]),
  })));
  $('a-sweep-chart').replaceChildren(lineChart({
    title: `Success probability against ${v.key} (${v.rules.join(' ')})`,
    xLabel: v.key,
    yLabel: 'success probability',
    xs: v.values.map((x) => ({ x: xOf(x), label: x })),
    series,
  }));
  const table = $('a-sweep-values');
  table.replaceChildren(el('tr', {}, [
    el('th', { scope: 'col', text: v.key }),
    ...methods.flatMap((m) => v.players.map((n) => el('th', { scope: 'col', text: `${m.name} @${playersText(n)}` }))),
  ]));
  for (const x of v.values) {
    if (!v.players.some((n) => v.points.has(`${x}|${n}`))) continue;
    table.append(el('tr', {}, [
      el('th', { scope: 'row', text: x }),
      ...methods.flatMap((m, k) => v.players.map((n) => {
        const p = v.points.get(`${x}|${n}`);
        return acell('td', m, n, p && { win: p.wins[k] }, { 'data-point': `${v.key}=${x}` });
      })),
    ]));
  }
}
