// The raven explorer's page: controls built from the engine's own list of settings, the
// engine run in a worker (a new input terminates the running one), numbers shown as they
// arrive, charts drawn as SVG, the state kept in the URL.
'use strict';

const STEALTHS = Array.from({ length: 17 }, (_, i) => i);
const HEADLINE = [8, 10, 12];
const FIRST = [10];
const PRINTED_PRESET = 'main-text';
// Okabe and Ito's palette, told apart by colour-blind readers; optimal play in black. Each
// line also has its own dash pattern, so that no series is told by colour alone.
const PALETTE = ['#000000', '#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#999999'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '6 2 2 2'];

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

let meta = null;
let wasmModule = null;
let workerUrl = null;
let jobCounter = 0;

// The page's state: everything the URL holds.
const defaults = () => ({
  game: 'purple-raven', // or 'annulus' (annulus.js)
  mode: 'curves',
  preset: PRINTED_PRESET,
  rules: {}, // key -> value, where it differs from the preset
  strategies: [], // bundled names besides the reference (set from the preset: defaultStrategies)
  files: [], // {name, text}
  focus: 'reference',
  focusStealth: 10,
  axes: [{ key: 'run-challenges', from: '3', to: '9' }, { key: '', from: '', to: '' }],
  sweepStealth: '10',
});
const state = defaults();

// What the page shows: the current job's answers.
let view = null;
let sweepView = null;
// The printed game's win probabilities: strategy identity -> stealth -> win.
const printed = new Map();

// Timings of the computations, for whoever measures the page (the browser test).
window.ravenTimings = [];

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

const percent = (x) => `${(100 * x).toFixed(2)}%`;

function setting(key) {
  return meta.settings.find((s) => s.key === key);
}

// The value of `key` under a preset: the printed game's unless the preset changes it.
function presetValue(preset, key) {
  const p = meta.presets.find((q) => q.name === preset);
  const change = p && p.changes.find((c) => c.startsWith(`${key}=`));
  return change ? change.slice(key.length + 1) : setting(key).printed;
}

function currentValue(key) {
  return key in state.rules ? state.rules[key] : presetValue(state.preset, key);
}

// The `--rule KEY=VALUE` overrides, in the engine's order of the keys.
function overrides() {
  const known = meta.settings.map((s) => s.key);
  const keys = Object.keys(state.rules).sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib);
  });
  return keys.map((k) => `${k}=${state.rules[k]}`);
}

// The best strategy a person can follow from its file, shown beside the reference until the
// reader picks their own: the file tuned to the preset's readings where the bundle has one
// (`tuned-clarified`), else `tuned`, tuned to the printed text.
function defaultStrategies(preset) {
  const own = `tuned-${preset}`;
  return [meta.strategies.some((s) => s.name === own) ? own : 'tuned'];
}

// A new preset; the strategies shown follow it while they are still the default ones.
function choosePreset(preset) {
  const followed = state.strategies.join(',') === defaultStrategies(state.preset).join(',');
  state.preset = preset;
  if (followed) state.strategies = defaultStrategies(preset);
}

function isPrintedGame() {
  return state.preset === PRINTED_PRESET && Object.keys(state.rules).length === 0;
}

function strategySources() {
  const sources = [{ name: 'reference' }];
  for (const name of state.strategies) if (name !== 'reference') sources.push({ name });
  for (const f of state.files) sources.push({ name: f.name, origin: `${f.name}.toml`, text: f.text });
  return sources;
}

const identity = (source) => JSON.stringify(source);

// ---------------------------------------------------------------- the URL

function writeUrl() {
  if (state.game === 'annulus') {
    history.replaceState(null, '', `#${annulusHash()}`);
    return;
  }
  const q = new URLSearchParams();
  if (state.mode !== 'curves') q.append('mode', state.mode);
  if (state.preset !== PRINTED_PRESET) q.append('preset', state.preset);
  for (const o of overrides()) {
    const i = o.indexOf('=');
    q.append(o.slice(0, i), o.slice(i + 1));
  }
  for (const name of state.strategies) q.append('strategy', name);
  if (state.strategies.length === 0) q.append('strategy', 'none');
  for (const f of state.files) q.append('file', `${f.name}~${btoa(unescape(encodeURIComponent(f.text)))}`);
  if (state.focus !== 'reference') q.append('focus', state.focus);
  if (state.focusStealth !== 10) q.append('focus-stealth', String(state.focusStealth));
  if (state.mode === 'sweep') {
    for (const a of state.axes) if (a.key) q.append('param', axisSpelling(a));
    q.append('stealth', state.sweepStealth);
  }
  const hash = q.toString().replace(/%3D/g, '=').replace(/%2C/g, ',');
  history.replaceState(null, '', `#${hash}`);
}

// `KEY=FROM..TO` for numbers, `KEY=V1,V2,…` otherwise, as `raven explore --param` takes it.
function axisSpelling(a) {
  const values = axisValues(a);
  const numeric = values.every((v) => /^\d+$/.test(v));
  return numeric && values.length > 2 ? `${a.key}=${a.from}..${a.to}` : `${a.key}=${values.join(',')}`;
}

function axisValues(a) {
  const s = setting(a.key);
  if (!s) return [];
  let i = s.values.indexOf(a.from);
  let j = s.values.indexOf(a.to);
  if (i < 0) i = 0;
  if (j < 0) j = s.values.length - 1;
  if (i > j) [i, j] = [j, i];
  return s.values.slice(i, j + 1);
}

function readUrl() {
  Object.assign(state, defaults());
  const q = new URLSearchParams(location.hash.slice(1));
  const game = q.get('game');
  showError('game-error', game === null || game === 'purple-raven' || game === 'annulus' ? ''
    : `the link's game=${game} is not a game of the page (purple-raven, annulus): showing Operation Purple Raven`);
  if (game === 'annulus') {
    state.game = 'annulus';
    // Purple Raven's view, if the reader switches to it, opens as its own bare link does.
    state.strategies = defaultStrategies(state.preset);
    readAnnulusUrl(q);
    return;
  }
  const keys = new Set(meta.settings.map((s) => s.key));
  const strategies = [];
  const axes = [];
  for (const [k, v] of q) {
    if (k === 'game') continue; // `game=purple-raven`, the default, said aloud
    if (k === 'mode') state.mode = v === 'sweep' ? 'sweep' : 'curves';
    else if (k === 'preset') state.preset = v;
    else if (k === 'strategy') strategies.push(v);
    else if (k === 'file') {
      const i = v.indexOf('~');
      try {
        state.files.push({ name: v.slice(0, i), text: decodeURIComponent(escape(atob(v.slice(i + 1)))) });
      } catch (e) {
        showError('strategy-error', `file in the link is unreadable: ${e.message}`);
      }
    } else if (k === 'focus') state.focus = v;
    else if (k === 'focus-stealth') state.focusStealth = Number(v);
    else if (k === 'param') axes.push(parseAxis(v));
    else if (k === 'stealth') state.sweepStealth = v;
    else if (keys.has(k) || k.includes('-')) state.rules[k] = v; // a rule key; the engine judges it
  }
  state.strategies = strategies.length ? strategies.filter((s) => s !== 'none') : defaultStrategies(state.preset);
  if (axes.length) state.axes = [axes[0], axes[1] || { key: '', from: '', to: '' }];
  // Overrides equal to the preset's value say nothing.
  for (const key of Object.keys(state.rules)) {
    if (setting(key) && state.rules[key] === presetValue(state.preset, key)) delete state.rules[key];
  }
}

function parseAxis(text) {
  const i = text.indexOf('=');
  const key = text.slice(0, i);
  const list = text.slice(i + 1);
  const range = /^(\d+)\.\.(\d+)$/.exec(list);
  if (range) return { key, from: range[1], to: range[2] };
  const values = list.split(',');
  return { key, from: values[0], to: values[values.length - 1] };
}

// ---------------------------------------------------------------- controls

function buildControls() {
  const preset = $('preset');
  for (const p of meta.presets) preset.append(el('option', { value: p.name, text: p.name }));
  preset.addEventListener('change', () => {
    choosePreset(preset.value);
    for (const key of Object.keys(state.rules)) {
      if (setting(key) && state.rules[key] === presetValue(state.preset, key)) delete state.rules[key];
    }
    changed();
  });
  $('reset-all').addEventListener('click', () => {
    choosePreset(PRINTED_PRESET);
    state.rules = {};
    changed();
  });
  for (const s of meta.settings) {
    const box = s.design ? $('params') : $('flags');
    const id = `rule-${s.key}`;
    const row = el('div', { class: 'setting', 'data-key': s.key });
    const label = el('label', { for: id, text: s.key });
    let control;
    const shown = el('span', { class: 'value', id: `${id}-value` });
    if (s.values.length <= 2) {
      control = el('div', { class: 'choices', role: 'radiogroup', 'aria-label': s.key, id });
      for (const v of s.values) {
        const rid = `${id}-${v}`;
        const radio = el('input', { type: 'radio', name: id, id: rid, value: v });
        radio.addEventListener('change', () => setRule(s.key, v));
        const mark = v === s.printed ? ' (printed)' : '';
        control.append(el('span', {}, [radio, el('label', { for: rid, text: `${v}${mark}` })]));
      }
      label.removeAttribute('for');
      label.id = `${id}-label`;
      control.setAttribute('aria-labelledby', label.id);
    } else {
      const printedAt = s.values.indexOf(s.printed);
      const ticks = el('datalist', { id: `${id}-ticks` }, [el('option', { value: String(printedAt) })]);
      const range = el('input', {
        type: 'range', id, min: '0', max: String(s.values.length - 1), step: '1', list: `${id}-ticks`,
        'aria-describedby': `${id}-printed`,
      });
      range.addEventListener('input', () => setRule(s.key, s.values[Number(range.value)]));
      control = el('span', { class: 'slider' }, [range, ticks, shown]);
    }
    const reset = el('button', { type: 'button', class: 'reset', 'aria-label': `Reset ${s.key}`, text: 'reset' });
    reset.addEventListener('click', () => {
      delete state.rules[s.key];
      changed();
    });
    const printedNote = el('span', { class: 'printed', id: `${id}-printed`, text: `printed: ${s.printed}` });
    row.append(label, el('span', { class: 'control' }, [control, s.values.length > 2 ? printedNote : '']), reset);
    box.append(row);
  }

  const list = $('strategies');
  for (const s of meta.strategies) {
    const id = `strategy-${s.name}`;
    const box = el('input', { type: 'checkbox', id, value: s.name });
    if (s.name === 'reference') {
      box.checked = true;
      box.disabled = true;
    }
    box.addEventListener('change', () => {
      if (box.checked) state.strategies.push(s.name);
      else state.strategies = state.strategies.filter((n) => n !== s.name);
      changed();
    });
    const note = s.name === 'reference' ? ' (always shown)' : s.name === 'random' ? ' (slow)' : '';
    list.append(el('div', { class: 'row', title: s.description }, [box, el('label', { for: id, text: `${s.name}${note}` })]));
  }
  $('strategy-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('strategy-text').value = await file.text();
    $('strategy-name').value = file.name.replace(/\.toml$/, '');
  });
  $('strategy-add').addEventListener('click', () => {
    const name = $('strategy-name').value.trim() || 'mine';
    state.files = state.files.filter((f) => f.name !== name);
    state.files.push({ name, text: $('strategy-text').value });
    changed();
  });
  $('focus-strategy').addEventListener('change', (e) => {
    state.focus = e.target.value;
    changed();
  });
  $('focus-stealth').addEventListener('change', (e) => {
    const v = Math.max(0, Math.min(16, Math.round(Number(e.target.value) || 0)));
    state.focusStealth = v;
    changed();
  });

  $('mode-curves').addEventListener('click', () => { state.mode = 'curves'; changed(); });
  $('mode-sweep').addEventListener('click', () => { state.mode = 'sweep'; changed(); });
  const designKeys = meta.settings.filter((s) => s.design).map((s) => s.key);
  for (const n of [1, 2]) {
    const key = $(`axis${n}-key`);
    if (n === 2) key.append(el('option', { value: '', text: '(none)' }));
    for (const k of designKeys) key.append(el('option', { value: k, text: k }));
    const axis = () => state.axes[n - 1];
    key.addEventListener('change', () => {
      const s = setting(key.value);
      state.axes[n - 1] = s ? { key: s.key, from: s.values[0], to: s.values[s.values.length - 1] } : { key: '', from: '', to: '' };
      changed();
    });
    for (const end of ['from', 'to']) {
      $(`axis${n}-${end}`).addEventListener('change', (e) => { axis()[end] = e.target.value; changed(); });
    }
  }
  $('sweep-stealth').addEventListener('change', (e) => { state.sweepStealth = e.target.value.trim(); changed(); });

  $('export-csv').addEventListener('click', exportCsv);
  $('export-svg').addEventListener('click', exportSvg);
  $('export-png').addEventListener('click', exportPng);
  $('copy-link').addEventListener('click', () => navigator.clipboard && navigator.clipboard.writeText(location.href));
}

function setRule(key, value) {
  if (value === presetValue(state.preset, key)) delete state.rules[key];
  else state.rules[key] = value;
  changed();
}

// Puts the state into the controls.
function syncControls() {
  $('preset').value = state.preset;
  for (const s of meta.settings) {
    const id = `rule-${s.key}`;
    const v = currentValue(s.key);
    const row = document.querySelector(`.setting[data-key="${s.key}"]`);
    row.classList.toggle('changed', v !== s.printed);
    if (s.values.length <= 2) {
      for (const value of s.values) $(`${id}-${value}`).checked = value === v;
    } else {
      const i = s.values.indexOf(v);
      const range = $(id);
      if (i >= 0) range.value = String(i);
      range.setAttribute('aria-valuetext', v);
      $(`${id}-value`).textContent = v;
    }
  }
  for (const s of meta.strategies) {
    const box = $(`strategy-${s.name}`);
    if (s.name !== 'reference') box.checked = state.strategies.includes(s.name);
  }
  const focus = $('focus-strategy');
  focus.replaceChildren();
  const names = strategySources().map((s) => s.name);
  if (!names.includes(state.focus)) state.focus = 'reference';
  for (const n of names) focus.append(el('option', { value: n, text: n }));
  focus.value = state.focus;
  $('focus-stealth').value = String(state.focusStealth);
  $('mode-curves').setAttribute('aria-pressed', String(state.mode === 'curves'));
  $('mode-sweep').setAttribute('aria-pressed', String(state.mode === 'sweep'));
  $('curves-view').hidden = state.mode !== 'curves';
  $('sweep-view').hidden = state.mode !== 'sweep';
  for (const n of [1, 2]) {
    const a = state.axes[n - 1];
    $(`axis${n}-key`).value = a.key;
    const s = setting(a.key);
    for (const end of ['from', 'to']) {
      const select = $(`axis${n}-${end}`);
      select.replaceChildren();
      select.disabled = !s;
      if (s) {
        for (const v of s.values) select.append(el('option', { value: v, text: v }));
        select.value = a[end];
      }
    }
  }
  $('sweep-stealth').value = state.sweepStealth;
  const files = $('files');
  files.replaceChildren();
  for (const f of state.files) {
    const remove = el('button', { type: 'button', text: `remove ${f.name}`, 'aria-label': `Remove strategy ${f.name}` });
    remove.addEventListener('click', () => {
      state.files = state.files.filter((g) => g !== f);
      changed();
    });
    files.append(el('div', { class: 'row' }, [el('span', { text: `file: ${f.name}` }), remove]));
  }
}

function showError(id, message) {
  const box = $(id);
  box.hidden = !message;
  box.textContent = message || '';
}

// ---------------------------------------------------------------- the engine

// Runs `lanes` (lists of requests), each on a worker of its own, side by side: the browser
// gives each worker a core. Every message goes to `onMessage`; `onFinished` once every lane
// has run to its end. A new computation terminates the workers of the last one. Returns a
// function that adds a lane to the running computation.
function runLanes(lanes, onMessage, onFinished) {
  stopWorkers();
  let left = 0;
  const add = (requests) => {
    left += 1;
    const w = new Worker(workerUrl);
    workers.push(w);
    w.onmessage = (e) => {
      if (!workers.includes(w)) return;
      const message = JSON.parse(e.data);
      if (message.type === 'lane-done') {
        w.terminate();
        workers = workers.filter((x) => x !== w);
        left -= 1;
        if (left === 0 && onFinished) onFinished();
      } else onMessage(message);
    };
    w.onerror = (e) => {
      if (!workers.includes(w)) return;
      onMessage({ type: 'error', field: 'engine', message: `the engine stopped: ${e.message}` });
      w.terminate();
      workers = workers.filter((x) => x !== w);
      left -= 1;
      if (left === 0 && onFinished) onFinished();
    };
    w.postMessage({ module: wasmModule, requests });
  };
  for (const requests of lanes) add(requests);
  return add;
}

let workers = [];

function stopWorkers() {
  for (const w of workers) w.terminate();
  workers = [];
}

// How many workers a computation uses: one per core, two at most (the curves split in two).
const LANES = Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));

// Any change: the URL, the controls, and a fresh computation (ending the running one).
function changed() {
  const started = performance.now();
  writeUrl();
  showGame();
  if (state.game === 'annulus') {
    syncAnnulusControls();
    if (state.mode === 'curves') computeAnnulusCurves(started);
    else computeAnnulusSweep(started);
    return;
  }
  syncControls();
  if (state.mode === 'curves') computeCurves(started);
  else computeSweep(started);
}

function setStatus(text, done, total) {
  $('status-text').textContent = text;
  const bar = $('progress');
  bar.max = total || 1;
  bar.value = done || 0;
}

function computeCurves(started) {
  const sources = strategySources();
  const job = ++jobCounter;
  const timing = { job, kind: 'curves', started, first: null, curves: null, done: null };
  window.ravenTimings.push(timing);
  view = {
    job, sources, values: new Map(), csv: null, decisions: null, errors: [], done: false, rulesText: null, printedGame: isPrintedGame(),
    quality: newQuality(job, { 'data-stealth': state.focusStealth }),
  };
  document.body.dataset.state = 'computing';
  showError('rules-error', '');
  showError('strategy-error', '');
  for (const row of document.querySelectorAll('.setting.invalid')) row.classList.remove('invalid');
  renderCurves();
  setStatus(`Computing optimal play and ${sources.length} strateg${sources.length === 1 ? 'y' : 'ies'}…`, 0, 1);
  const rules = { preset: state.preset, rules: overrides() };
  const focus = sources.find((s) => s.name === state.focus) || sources[0];
  // First optimal play and the reference at stealth 10, each alone (one per lane), then
  // every stealth: optimal play in one solve with its figures, the strategies one
  // evaluation each, as the command line computes them; then the focus strategy's regret.
  const early = [
    { op: 'solve', ...rules, stealths: FIRST, figures: false },
    { op: 'exact', ...rules, strategies: [sources[0]], stealths: FIRST },
  ];
  const full = [
    { op: 'exact', ...rules, strategies: sources, stealths: STEALTHS },
    { op: 'solve', ...rules, stealths: STEALTHS, figures: true },
  ];
  const regret = { op: 'decisions', ...rules, strategy: focus, stealth: state.focusStealth };
  // On two cores or more, the second lane waits for the first numbers before it starts
  // optimal play at every stealth: until then the first lane's solve has a core to itself
  // and the other is left to the browser (drawing, compiling the engine's hot code).
  const lanes = LANES > 1
    ? [[early[0], full[0]], [early[1]]]
    : [[early[0], early[1], full[1], full[0], regret]];
  let later = LANES > 1 ? [full[1], regret] : null;
  let addLane = null;
  let steps = 0;
  const total = 2 + 1 + sources.length + 2;
  let csvAsked = false;
  let finished = false;
  const finish = () => {
    if (!finished || (complete(view) && !view.csv && !view.errors.length)) return;
    view.done = true;
    timing.done = performance.now();
    const seconds = ((timing.done - started) / 1000).toFixed(2);
    document.body.dataset.state = view.errors.length ? 'error' : 'done';
    setStatus(view.errors.length ? 'Stopped: see the message' : `Done in ${seconds} s`, 1, 1);
    renderCurves();
    if (!view.errors.length) computeAfter();
  };
  const onMessage = (m) => {
    if (view.job !== job) return;
    if (m.type === 'value') {
      view.values.set(`${m.method}|${m.strategy}|${m.stealth}`, { win: m.win, figures: m.figures });
      if (view.printedGame) remember(m, sources);
      const now = performance.now();
      if (timing.first === null && view.values.has('optimal|optimal|10') && view.values.has('exact|reference|10')) timing.first = now;
      if (later && view.values.has('optimal|optimal|10') && (!sources.length || view.values.has(`exact|${sources[0].name}|10`))) {
        addLane(later);
        later = null;
      }
      if (timing.curves === null && complete(view)) {
        timing.curves = now;
        askCsv();
      }
    } else if (m.type === 'done') {
      steps += 1;
      setStatus(`Computing… ${steps} of ${total} steps`, steps, total);
    } else if (m.type === 'csv') {
      view.csv = m.text;
      view.rulesText = m.text.split('\n')[1].split(',')[1];
      finish();
    } else if (m.type === 'decisions') {
      view.decisions = m;
    } else if (m.type === 'error') {
      view.errors.push(m);
      if (m.field === 'rules') {
        showError('rules-error', m.message);
        for (const s of meta.settings) {
          if (m.message.includes(`${s.key}=`) || m.message.includes(`'${s.key}'`)) {
            document.querySelector(`.setting[data-key="${s.key}"]`).classList.add('invalid');
          }
        }
      } else if (m.field === 'strategy') showError('strategy-error', m.message);
      else showError('rules-error', m.message);
    }
    renderCurves();
  };
  // The CSV once every figure is in: written by the engine, as the command line writes it.
  const askCsv = () => {
    if (csvAsked) return;
    csvAsked = true;
    const results = [];
    for (const m of methods(view)) {
      for (const s of STEALTHS) {
        results.push({ strategy: m.name, method: m.method, stealth: s, figures: view.values.get(`${m.method}|${m.name}|${s}`).figures });
      }
    }
    const w = new Worker(workerUrl);
    workers.push(w);
    w.onmessage = (e) => {
      const message = JSON.parse(e.data);
      if (message.type === 'lane-done') {
        w.terminate();
        workers = workers.filter((x) => x !== w);
      } else if (workers.includes(w)) onMessage(message);
    };
    w.postMessage({ module: wasmModule, requests: [{ op: 'csv', ...rules, results }] });
  };
  addLane = runLanes(lanes, onMessage, () => {
    if (later && !view.errors.length) {
      addLane(later);
      later = null;
      return;
    }
    finished = true;
    finish();
  });
}

function remember(m, sources) {
  const source = m.method === 'optimal' ? 'optimal' : identity(sources.find((s) => s.name === m.strategy));
  if (!printed.has(source)) printed.set(source, new Map());
  printed.get(source).set(m.stealth, m.win);
}

function complete(v) {
  return STEALTHS.every((s) => v.values.has(`optimal|optimal|${s}`) && v.values.get(`optimal|optimal|${s}`).figures
    && v.sources.every((src) => v.values.has(`exact|${src.name}|${s}`)));
}

// After the view's own numbers: the printed game's at 8, 10 and 12 for what is shown and not
// known yet (for the changes beside the headline numbers), and "Is it a good game?" at the
// focus stealth, each strategy a request of its own, dealt out to the lanes.
function computeAfter() {
  const missing = view.sources.filter((s) => !printed.has(identity(s)));
  const job = view.job;
  const before = { preset: PRINTED_PRESET, rules: [] };
  const requests = [];
  if (!printed.has('optimal')) requests.push({ op: 'solve', ...before, stealths: HEADLINE, figures: false });
  if (missing.length) requests.push({ op: 'exact', ...before, strategies: missing, stealths: HEADLINE });
  const rules = { preset: state.preset, rules: overrides() };
  const stealths = [view.quality.axis['data-stealth']];
  for (const source of [{ name: 'optimal' }, ...view.sources]) {
    requests.push({ op: 'quality', ...rules, strategies: [source], stealths });
  }
  const focus = view.sources.find((s) => s.name === state.focus) || view.sources[0] || { name: 'optimal' };
  requests.push({ op: 'ledger', ...rules, strategy: focus, stealth: stealths[0] });
  qualityStarted(view.quality, 'purple-raven');
  renderQuality();
  runLanes(deal(requests), (m) => {
    if (m.type === 'value') {
      remember(m, missing);
      if (view.job === job && state.mode === 'curves') renderCurves();
    } else if (view.job === job && (m.type === 'quality' || m.type === 'ledger' || m.type === 'error')) {
      qualityMessage(view.quality, m);
      renderQuality();
    }
  }, () => {
    if (view.job !== job) return;
    qualityFinished(view.quality);
    renderQuality();
  });
}

// Requests dealt out to the lanes in turn.
function deal(requests) {
  const lanes = Array.from({ length: Math.min(LANES, requests.length) }, () => []);
  requests.forEach((r, i) => lanes[i % lanes.length].push(r));
  return lanes;
}

// ---------------------------------------------------------------- is it a good game?

const fixed = (digits, unit = '') => (x) => `${x.toFixed(digits)}${unit}`;
const share = (digits) => (x) => `${(100 * x).toFixed(digits)}%`;
// The figures, by `raven quality --out`'s column names, every one exact.
const QUALITY_COLUMNS = [
  { key: 'win_rate', head: 'wins', method: 'exact', text: share(1) },
  { key: 'luck_share', head: 'luck', method: 'exact', text: share(0) },
  { key: 'suspense', head: 'suspense', method: 'exact', text: (x) => `${(100 * x).toFixed(1)} pp` },
  { key: 'comeback_rate', head: 'comebacks', method: 'exact', text: share(1) },
  { key: 'heartbreak_rate', head: 'heartbreaks', method: 'exact', text: share(1) },
  { key: 'mean_rolls', head: 'rolls', method: 'exact', text: fixed(1) },
  { key: 'rolls_median', head: 'median rolls', method: 'exact', text: fixed(0) },
  { key: 'mean_decisions', head: 'decisions', method: 'exact', text: fixed(1) },
  { key: 'decisions_median', head: 'median decisions', method: 'exact', text: fixed(0) },
  { key: 'skill_loss', head: 'lost to choices', method: 'exact', text: (x) => `${(100 * x).toFixed(2)} pp` },
];

// A view's quality figures: the messages by method and strategy, where on the game's axis
// (`data-stealth` or `data-players` and its value), the errors, and the state the table
// carries (`idle`, `computing`, `done`, `error`).
function newQuality(job, axis) {
  return { job, axis, got: new Map(), ledger: null, errors: [], state: 'idle', timing: null };
}

// The quality figures' computation starts: timed for whoever measures the page.
function qualityStarted(q, game) {
  q.state = 'computing';
  q.timing = { job: q.job, kind: 'quality', game, started: performance.now(), done: null };
  window.ravenTimings.push(q.timing);
}

function qualityMessage(q, m) {
  if (m.type === 'ledger') q.ledger = m;
  else if (m.type === 'quality') q.got.set(`${m.method}|${m.strategy}`, m);
  else if (m.type === 'error') q.errors.push(m);
}

function qualityFinished(q) {
  q.state = q.errors.length ? 'error' : 'done';
  q.timing.done = performance.now();
}

// The table of `q` for `methods` ({method, name}) into the elements `prefix`quality…, its
// heading naming `where`.
function qualityPanel(prefix, q, methods, where, decisions) {
  $(`${prefix}quality-title`).textContent = `Is it a good game? ${where}`;
  $(`${prefix}quality-legend`).textContent = `Luck: the share of the spread of results the dice explain (the rest is the ${decisions}). `
    + 'Suspense: how far the chance of winning moves per roll or decision, on average. '
    + 'Comebacks: wins after the chance fell to 20% or lower; heartbreaks: losses after it rose to 80% or higher. '
    + `Rolls and ${decisions}: per game. Lost to choices: points of winning chance (of 100) the ${decisions} cost against optimal play. `
    + 'Every figure exact, over every game, as raven quality gives it.';
  showError(`${prefix}quality-error`, q.errors.map((e) => e.message).join('\n'));
  const table = $(`${prefix}quality`);
  table.dataset.state = q.state;
  table.dataset.job = String(q.job);
  table.replaceChildren(el('tr', {}, [el('th', { scope: 'col', text: 'strategy' }),
    ...QUALITY_COLUMNS.map((c) => el('th', { scope: 'col', text: c.key === 'mean_decisions' || c.key === 'decisions_median' ? c.head.replace('decisions', decisions) : c.head }))]));
  const [axisKey, axisValue] = Object.entries(q.axis)[0];
  for (const m of methods) {
    const got = q.got.get(`${m.method}|${m.name}`);
    table.append(el('tr', {}, [el('th', { scope: 'row', text: m.name }), ...QUALITY_COLUMNS.map((c) => {
      const attrs = { 'data-method': c.method, 'data-strategy': m.name, [axisKey]: String(axisValue), 'data-figure': c.key };
      if (!got) return el('td', { ...attrs, class: 'pending', text: q.state === 'computing' ? '…' : '' });
      const x = got.figures[c.key];
      // A share of nothing (no win to come back in, say) has no value.
      if (typeof x !== 'number') return el('td', { ...attrs, text: '—' });
      return el('td', { ...attrs, 'data-value': String(x), text: c.text(x) });
    })]));
  }
}

// One game's ledger ("ledger" message `m`) as a small chart of the chance of winning after
// every roll and decision, with the sentence that sums it: the start, what the dice gave,
// what the choices gave up, the result (they add up, as `raven play`'s ledger does).
function ledgerPanel(prefix, q, where) {
  const box = $(`${prefix}ledger`);
  const m = q.ledger;
  box.dataset.state = m ? 'done' : q.state;
  box.replaceChildren();
  const text = $(`${prefix}ledger-text`);
  if (!m) {
    text.textContent = q.state === 'computing' ? '…' : '';
    return;
  }
  const [axisKey, axisValue] = Object.entries(q.axis)[0];
  const attrs = { 'data-method': m.method, 'data-strategy': m.strategy, [axisKey]: String(axisValue) };
  let now = m.start, luck = 0, skill = 0;
  for (const s of m.steps) {
    if (s.roll) luck += s.mu - now; else skill += s.mu - now;
    now = s.mu;
  }
  const pp = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} pp`;
  const span = (figure, value, shown) => el('span', { ...attrs, 'data-figure': figure, 'data-value': String(value), text: shown });
  text.replaceChildren(
    `The game raven play plays (seed ${m.seed}, game ${m.index}), ${m.strategy} ${where}: `,
    span('start', m.start, percent(m.start)), ' at the start, the dice ', span('luck', luck, pp(luck)),
    ', the choices ', span('skill', skill, pp(skill)), `: ${m.won ? 'won' : 'lost'}.`,
  );
  const W = 560, H = 170, L = 40, R = 10, T = 10, B = 26;
  const n = Math.max(1, m.steps.length);
  const px = (i) => L + (i / n) * (W - L - R);
  const py = (y) => T + (1 - y) * (H - T - B);
  const title = `${m.strategy}: the chance of winning after each roll and decision, seed ${m.seed}, game ${m.index}`;
  const root = svg('svg', { xmlns: SVG_NS, viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': title, 'font-family': 'system-ui, sans-serif', 'font-size': '10', ...attrs });
  root.append(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#fff' }));
  for (const y of [0, 0.2, 0.5, 0.8, 1]) {
    root.append(svg('line', { x1: L, x2: W - R, y1: py(y), y2: py(y), stroke: y === 0.5 ? '#999' : '#e3e3e3', 'stroke-dasharray': y === 0.2 || y === 0.8 ? '3 3' : null }));
    root.append(svg('text', { x: L - 4, y: py(y) + 3, 'text-anchor': 'end', text: `${100 * y}%` }));
  }
  const points = [[0, m.start], ...m.steps.map((s, i) => [i + 1, s.mu])];
  root.append(svg('path', { d: points.map(([i, y], j) => `${j ? 'L' : 'M'}${px(i).toFixed(1)},${py(y).toFixed(1)}`).join(''), fill: 'none', stroke: '#000', 'stroke-width': 1.5 }));
  m.steps.forEach((s, i) => {
    const x = px(i + 1), y = py(s.mu);
    const tip = svg('title', { text: `${s.roll ? 'roll' : 'decision'} ${i + 1}: ${percent(s.mu)}` });
    root.append(s.roll
      ? svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 2, fill: '#0072B2', 'data-step': String(i + 1), 'data-value': String(s.mu) }, [tip])
      : svg('rect', { x: (x - 2.5).toFixed(1), y: (y - 2.5).toFixed(1), width: 5, height: 5, fill: '#D55E00', 'data-step': String(i + 1), 'data-value': String(s.mu) }, [tip]));
  });
  root.append(svg('text', { x: L, y: H - 8, text: `${m.steps.length} steps: dots rolls, squares decisions; dashed: 20% and 80%` }));
  box.append(root);
}

function renderQuality() {
  const s = view.quality.axis['data-stealth'];
  qualityPanel('', view.quality, methods(view), `At stealth ${s} (the stealth of the losses below)`, 'decisions');
  ledgerPanel('', view.quality, `at stealth ${s}`);
}

// ---------------------------------------------------------------- curves view

function methods(v) {
  return [{ method: 'optimal', name: 'optimal', source: 'optimal' }]
    .concat(v.sources.map((s) => ({ method: 'exact', name: s.name, source: identity(s) })));
}

function valueCell(tag, m, stealth, figures, extra = {}) {
  const attrs = { 'data-method': m.method, 'data-strategy': m.name, 'data-stealth': String(stealth), ...extra };
  if (!figures) return el(tag, { ...attrs, class: 'pending', text: '…' });
  return el(tag, { ...attrs, 'data-value': String(figures.win), text: percent(figures.win) });
}

function renderCurves() {
  if (!view) return;
  $('rules-shown').textContent = view.rulesText || [state.preset, ...overrides()].join(' ');
  const ms = methods(view);
  // Every number.
  const values = $('values');
  values.replaceChildren();
  values.append(el('caption', { text: 'Win probability by starting stealth (exact; optimal play solved)' }));
  values.append(el('tr', {}, [el('th', { scope: 'col', text: 'strategy' }), ...STEALTHS.map((s) => el('th', { scope: 'col', text: String(s) }))]));
  for (const m of ms) {
    values.append(el('tr', {}, [
      el('th', { scope: 'row', text: m.name }),
      ...STEALTHS.map((s) => valueCell('td', m, s, view.values.get(`${m.method}|${m.name}|${s}`))),
    ]));
  }
  renderAnswer(ms);
  // The headline: each number once, and beside it only its change against the printed game,
  // the comparison named once above the table.
  $('headline-note').textContent = view.printedGame
    ? 'These are the printed game\'s rules: change one to see each number move against them.'
    : `Beside each number: its change against the printed game (${PRINTED_PRESET}), in percentage points.`;
  const head = $('headline');
  head.replaceChildren();
  head.append(el('tr', {}, [el('th', { scope: 'col', text: 'strategy' }), ...HEADLINE.map((s) => el('th', { scope: 'col', text: `stealth ${s}` }))]));
  for (const m of ms) {
    head.append(el('tr', {}, [el('th', { scope: 'row', text: m.name }), ...HEADLINE.map((s) => {
      const figures = view.values.get(`${m.method}|${m.name}|${s}`);
      const cell = valueCell('td', m, s, figures);
      if (figures) {
        const base = printed.get(m.source);
        const was = base && base.get(s);
        if (!view.printedGame) {
          const pp = was === undefined ? null : 100 * (figures.win - was);
          const delta = pp === null ? '…' : `${pp >= 0 ? '+' : '−'}${Math.abs(pp).toFixed(2)}`;
          cell.append(el('span', { class: 'delta', text: delta }));
        }
      }
      return cell;
    })]));
  }
  $('chart').replaceChildren(curvesChart(ms));
  renderQuality();
  renderFocus(ms);
}

// The answer in one sentence, from the numbers on the page: each method's win at stealth 10
// and the least starting stealth at which it wins at least half its games. With more than
// two strategies besides the reference, the sentence names the best of them; the tables
// hold the rest.
function renderAnswer(ms) {
  const box = $('answer');
  if (view.errors.length) {
    box.replaceChildren('No answer for these rules: see the message.');
    return;
  }
  const [stealth] = FIRST;
  const win = (m, s) => (view.values.get(`${m.method}|${m.name}|${s}`) || {}).win;
  const others = ms.filter((m) => m.method === 'exact' && m.name !== 'reference');
  let named = others;
  let best = '';
  if (others.length > 2) {
    const known = others.filter((m) => win(m, stealth) !== undefined);
    if (known.length === others.length) {
      named = [known.reduce((a, b) => (win(b, stealth) > win(a, stealth) ? b : a))];
      best = ` (the best of the ${others.length} chosen)`;
    } else named = [];
  }
  const shown = [ms[0], ...named, ...ms.filter((m) => m.name === 'reference' && m.method === 'exact')];
  const who = (m) => (m.method === 'optimal' ? 'optimal play' : m.name === 'reference' ? 'the reference' : m.name);
  const attrs = (m, s) => ({ 'data-method': m.method, 'data-strategy': m.name, 'data-stealth': String(s) });
  const number = (m) => {
    const w = win(m, stealth);
    return w === undefined
      ? el('span', { ...attrs(m, stealth), 'data-figure': 'win', class: 'pending', text: '…' })
      : el('span', { ...attrs(m, stealth), 'data-figure': 'win', 'data-value': String(w), text: percent(w) });
  };
  // The least stealth won at least half the time; none up to the last: said so, with the
  // win at the last stealth.
  const even = (m) => {
    if (!STEALTHS.every((s) => win(m, s) !== undefined)) return el('span', { 'data-method': m.method, 'data-strategy': m.name, 'data-figure': 'even', class: 'pending', text: '…' });
    const at = STEALTHS.find((s) => win(m, s) >= 0.5);
    const last = STEALTHS[STEALTHS.length - 1];
    return at === undefined
      ? el('span', { ...attrs(m, last), 'data-figure': 'even', 'data-value': String(win(m, last)), text: `no stealth up to ${last}` })
      : el('span', { ...attrs(m, at), 'data-figure': 'even', 'data-value': String(win(m, at)), text: `stealth ${at}` });
  };
  const list = (parts) => parts.flatMap((p, i) => (i === 0 ? p : [i === parts.length - 1 ? ' and ' : ', ', ...p]));
  // The rules as the reader set them (the preset and each change), shorter than the engine's
  // spelling, which lists every ruling once one differs from the preset.
  const rules = [state.preset, ...overrides()].join(' ');
  box.replaceChildren(
    `Under ${rules} at stealth ${stealth}, `,
    ...list(shown.map((m, i) => [`${who(m)}${i === 0 ? ' wins' : i === 1 ? best : ''} `, number(m)])),
    '. The game is even (won at least half the time) from ',
    ...list(shown.map((m) => [even(m), ` for ${who(m)}`])),
    '.',
  );
}

function curvesChart(ms) {
  const series = ms.map((m, i) => ({
    name: m.name,
    colour: PALETTE[i % PALETTE.length],
    dash: DASHES[i % DASHES.length],
    points: STEALTHS.filter((s) => view.values.has(`${m.method}|${m.name}|${s}`))
      .map((s) => [s, view.values.get(`${m.method}|${m.name}|${s}`).win]),
  }));
  return lineChart({
    title: `Win probability against starting stealth (${view.rulesText || [state.preset, ...overrides()].join(' ')})`,
    xLabel: 'starting stealth',
    xs: STEALTHS.map((s) => ({ x: s, label: String(s) })),
    series,
  });
}

function renderFocus(ms) {
  const focus = ms.find((m) => m.name === state.focus && m.method === 'exact') || ms[1];
  const s = state.focusStealth;
  const losses = $('losses');
  losses.replaceChildren();
  const shown = [ms[0], focus];
  losses.append(el('tr', {}, [el('th', { scope: 'col', text: `stealth ${s}` }), ...shown.map((m) => el('th', { scope: 'col', text: m.name }))]));
  const figureOf = (m) => (view.values.get(`${m.method}|${m.name}|${s}`) || {}).figures;
  const rows = [['win', (f) => f.win]].concat(meta.losses.map((cause, i) => [`loss: ${cause.replace(/_/g, ' ')}`, (f) => f.losses[i]]));
  for (const [label, pick] of rows) {
    losses.append(el('tr', {}, [el('th', { scope: 'row', text: label }), ...shown.map((m) => {
      const f = figureOf(m);
      const attrs = { 'data-method': m.method, 'data-strategy': m.name, 'data-stealth': String(s), 'data-figure': label };
      if (!f) return el('td', { ...attrs, class: 'pending', text: '…' });
      return el('td', { ...attrs, 'data-value': String(pick(f)), text: percent(pick(f)) });
    })]));
  }
  const regret = $('regret');
  regret.replaceChildren();
  const d = view.decisions;
  regret.append(el('caption', { text: d ? `${d.strategy} at stealth ${d.stealth}: optimal ${percent(d.optimal)}, exact ${percent(d.exact)}` : `${focus.name} at stealth ${s}: …` }));
  regret.append(el('tr', {}, ['decision kind', 'regret', 'arises per game', 'matters per game'].map((t) => el('th', { scope: 'col', text: t }))));
  for (const [i, kind] of meta.kinds.entries()) {
    const k = d && d.kinds[i];
    const attrs = { 'data-method': 'exact', 'data-strategy': focus.name, 'data-stealth': String(s), 'data-kind': kind };
    regret.append(el('tr', {}, [
      el('th', { scope: 'row', text: kind }),
      k ? el('td', { ...attrs, 'data-figure': 'regret', 'data-value': String(k.regret), text: `${(100 * k.regret).toFixed(3)} pp` }) : el('td', { class: 'pending', text: '…' }),
      k ? el('td', { ...attrs, 'data-figure': 'arises', 'data-value': String(k.arises), text: k.arises.toFixed(3) }) : el('td', { class: 'pending', text: '…' }),
      k ? el('td', { ...attrs, 'data-figure': 'matters', 'data-value': String(k.matters), text: k.matters.toFixed(3) }) : el('td', { class: 'pending', text: '…' }),
    ]));
  }
}

// ---------------------------------------------------------------- charts

// A line chart: `xs` the ticks ({x, label}), each series a list of [x, y] with y in 0..1.
function lineChart({ title, xLabel, yLabel = 'win probability', xs, series }) {
  const W = 720, H = 400, L = 56, R = 170, T = 36, B = 48;
  const xMin = Math.min(...xs.map((t) => t.x));
  const xMax = Math.max(...xs.map((t) => t.x));
  const px = (x) => L + (xMax === xMin ? 0.5 : (x - xMin) / (xMax - xMin)) * (W - L - R);
  const py = (y) => T + (1 - y) * (H - T - B);
  const root = svg('svg', { xmlns: SVG_NS, viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': title, 'font-family': 'system-ui, sans-serif', 'font-size': '12' });
  root.append(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#fff' }));
  root.append(svg('text', { x: L, y: 20, 'font-size': '13', 'font-weight': 'bold', text: title.length > 90 ? `${title.slice(0, 88)}…` : title }));
  for (let i = 0; i <= 10; i++) {
    const y = py(i / 10);
    // The 50% line, where a game is even, drawn darker than the rest.
    root.append(svg('line', { x1: L, x2: W - R, y1: y, y2: y, stroke: i === 5 ? '#777' : i % 5 === 0 ? '#bbb' : '#e6e6e6', 'stroke-width': i === 5 ? 1.5 : 1 }));
    root.append(svg('text', { x: L - 6, y: y + 4, 'text-anchor': 'end', text: `${i * 10}%` }));
  }
  for (const t of xs) {
    root.append(svg('line', { x1: px(t.x), x2: px(t.x), y1: H - B, y2: H - B + 4, stroke: '#555' }));
    root.append(svg('text', { x: px(t.x), y: H - B + 16, 'text-anchor': 'middle', text: t.label }));
  }
  root.append(svg('text', { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle', text: xLabel }));
  root.append(svg('text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle', text: yLabel }));
  root.append(svg('rect', { x: L, y: T, width: W - L - R, height: H - T - B, fill: 'none', stroke: '#555' }));
  series.forEach((s, i) => {
    if (s.points.length) {
      const d = s.points.map(([x, y], j) => `${j ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
      root.append(svg('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': 2, 'stroke-dasharray': s.dash || null }));
      for (const [x, y] of s.points) {
        root.append(svg('circle', { cx: px(x).toFixed(1), cy: py(y).toFixed(1), r: 2.5, fill: s.colour }, [svg('title', { text: `${s.name}: ${percent(y)}` })]));
      }
    }
    const ly = T + 14 + i * 18;
    root.append(svg('line', { x1: W - R + 10, x2: W - R + 40, y1: ly - 4, y2: ly - 4, stroke: s.colour, 'stroke-width': 2, 'stroke-dasharray': s.dash || null }));
    root.append(svg('text', { x: W - R + 46, y: ly, text: s.name }));
  });
  return root;
}

// A colour-blind-safe sequential scale (viridis) for 0..1.
const VIRIDIS = [[68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137], [53, 183, 121], [109, 205, 89], [180, 222, 44], [253, 231, 37]];
function viridis(t) {
  const x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const c = VIRIDIS[i].map((a, k) => Math.round(a + f * (VIRIDIS[i + 1][k] - a)));
  return [`rgb(${c.join(',')})`, c[0] * 0.299 + c[1] * 0.587 + c[2] * 0.114 > 140 ? '#000' : '#fff'];
}

// Panels (rows: methods; columns: stealths), x the first parameter, y the second; skipped
// points hatched.
function heatMap({ title, x, y, labels, stealths, cell }) {
  const cw = Math.max(26, Math.min(56, 360 / x.values.length));
  const ch = Math.max(18, Math.min(32, 240 / y.values.length));
  const pw = cw * x.values.length, ph = ch * y.values.length;
  const L = 150, T = 44, gap = 36;
  // Wide enough for the title and the note under the panels.
  const W = Math.max(L + stealths.length * (pw + gap) + 20, 760);
  const H = T + labels.length * (ph + gap) + 40;
  const root = svg('svg', { xmlns: SVG_NS, viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': title, 'font-family': 'system-ui, sans-serif', 'font-size': '11' });
  root.append(svg('defs', {}, [svg('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [svg('rect', { width: 6, height: 6, fill: '#eee' }), svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#999', 'stroke-width': 2 })])]));
  root.append(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#fff' }));
  root.append(svg('text', { x: 10, y: 18, 'font-size': '13', 'font-weight': 'bold', text: title }));
  labels.forEach((label, k) => {
    stealths.forEach((stealth, j) => {
      const ox = L + j * (pw + gap);
      const oy = T + k * (ph + gap);
      root.append(svg('text', { x: ox, y: oy - 6, text: `${label}, stealth ${stealth}` }));
      y.values.forEach((yv, r) => {
        x.values.forEach((xv, c) => {
          const win = cell(xv, yv, k, j);
          const cx = ox + c * cw, cy = oy + (y.values.length - 1 - r) * ch;
          if (win === undefined) {
            root.append(svg('rect', { x: cx, y: cy, width: cw, height: ch, fill: 'url(#hatch)' }, [svg('title', { text: `${x.key}=${xv} ${y.key}=${yv}: not a valid design` })]));
          } else if (win === null) {
            root.append(svg('rect', { x: cx, y: cy, width: cw, height: ch, fill: '#fafafa', stroke: '#ddd' }));
          } else {
            const [fill, ink] = viridis(win);
            root.append(svg('rect', { x: cx, y: cy, width: cw, height: ch, fill }, [svg('title', { text: `${x.key}=${xv} ${y.key}=${yv}: ${percent(win)}` })]));
            if (cw >= 34) root.append(svg('text', { x: cx + cw / 2, y: cy + ch / 2 + 4, 'text-anchor': 'middle', fill: ink, 'font-size': '9', text: (100 * win).toFixed(1) }));
          }
        });
      });
      x.values.forEach((xv, c) => root.append(svg('text', { x: ox + c * cw + cw / 2, y: oy + ph + 12, 'text-anchor': 'middle', text: xv })));
      if (j === 0) y.values.forEach((yv, r) => root.append(svg('text', { x: ox - 4, y: oy + (y.values.length - 1 - r) * ch + ch / 2 + 4, 'text-anchor': 'end', text: yv })));
    });
  });
  root.append(svg('text', { x: L, y: H - 8, text: `across: ${x.key}; up: ${y.key}; colour: win probability from 0% (dark) to 100% (yellow)` }));
  return root;
}

// ---------------------------------------------------------------- sweep view

// `10`, `8,10,12` or `0..=16`, as `--stealth` takes it.
function parseStealths(text) {
  const out = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)\.\.(=?)(\d+)$/.exec(part);
    if (m) {
      const end = Number(m[3]) - (m[2] ? 0 : 1);
      for (let s = Number(m[1]); s <= end; s++) out.push(s);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
    else return null;
  }
  return out.length && out.every((s) => s <= 99) && new Set(out).size === out.length ? out : null;
}

function computeSweep(started) {
  const job = ++jobCounter;
  const timing = { job, kind: 'sweep', started, done: null };
  window.ravenTimings.push(timing);
  const axes = state.axes.filter((a) => a.key).map((a) => ({ key: a.key, values: axisValues(a) }));
  const stealths = parseStealths(state.sweepStealth);
  const sources = strategySources();
  sweepView = { job, axes, stealths: stealths || [], sources, points: new Map(), skipped: new Map(), csv: null, errors: [] };
  document.body.dataset.state = 'computing';
  showError('sweep-error', '');
  showError('rules-error', '');
  showError('strategy-error', '');
  renderSweep();
  if (!stealths) {
    showError('sweep-error', `'${state.sweepStealth}' is not a list of starting stealths 0..=99, none twice`);
    document.body.dataset.state = 'error';
    stopWorkers();
    return;
  }
  setStatus('Sweeping…', 0, 1);
  runLanes([[{ op: 'sweep', preset: state.preset, rules: overrides(), axes, strategies: sources, stealths }]], (m) => {
    if (sweepView.job !== job) return;
    if (m.type === 'point') sweepView.points.set(m.values.join('|'), m);
    else if (m.type === 'skipped') sweepView.skipped.set(m.values.join('|'), m.message);
    else if (m.type === 'progress') setStatus(`Sweeping… point ${m.done} of ${m.total}`, m.done, m.total);
    else if (m.type === 'csv') sweepView.csv = m.text;
    else if (m.type === 'error') {
      sweepView.errors.push(m);
      showError(m.field === 'strategy' ? 'strategy-error' : m.field === 'rules' ? 'rules-error' : 'sweep-error', m.message);
    } else if (m.type === 'done') {
      timing.done = performance.now();
      document.body.dataset.state = sweepView.errors.length ? 'error' : 'done';
      setStatus(sweepView.errors.length ? 'Stopped: see the message' : `Done in ${((timing.done - started) / 1000).toFixed(2)} s`, 1, 1);
    }
    renderSweep();
  });
}

function renderSweep() {
  const v = sweepView;
  if (!v) return;
  const labels = ['optimal', ...v.sources.map((s) => s.name)];
  const chart = $('sweep-chart');
  chart.replaceChildren();
  const rulesText = [state.preset, ...overrides()].join(' ');
  if (v.axes.length === 1) {
    const [axis] = v.axes;
    const number = (value) => (value === 'yes' ? 1 : value === 'no' || value === 'team' ? 0 : Number(value));
    const series = [];
    labels.forEach((label, k) => v.stealths.forEach((stealth, j) => {
      const i = series.length;
      series.push({
        name: `${label} @${stealth}`, colour: PALETTE[k % PALETTE.length], dash: DASHES[(k + j) % DASHES.length],
        points: axis.values.filter((x) => v.points.has(x)).map((x) => [number(x), v.points.get(x).wins[k][j]]),
      });
      return i;
    }));
    chart.append(lineChart({ title: `Win probability against ${axis.key} (${rulesText})`, xLabel: axis.key, xs: axis.values.map((x) => ({ x: number(x), label: x })), series }));
  } else if (v.axes.length === 2) {
    const [x, y] = v.axes;
    chart.append(heatMap({
      title: `Win probability over ${x.key} × ${y.key} (${rulesText})`, x, y, labels, stealths: v.stealths,
      cell: (xv, yv, k, j) => {
        const key = `${xv}|${yv}`;
        if (v.skipped.has(key)) return undefined;
        const p = v.points.get(key);
        return p ? p.wins[k][j] : null;
      },
    }));
  }
  const skipped = $('skipped');
  skipped.replaceChildren(...[...v.skipped].map(([key, message]) => el('li', { text: `skipped ${key.replace('|', ', ')}: ${message}` })));
  const table = $('sweep-values');
  table.replaceChildren();
  table.append(el('tr', {}, [...v.axes.map((a) => el('th', { scope: 'col', text: a.key })), ...labels.flatMap((l) => v.stealths.map((s) => el('th', { scope: 'col', text: `${l} @${s}` })))]));
  for (const p of v.points.values()) {
    const at = v.axes.map((a, i) => `${a.key}=${p.values[i]}`).join(' ');
    table.append(el('tr', {}, [
      ...p.values.map((value) => el('th', { scope: 'row', text: value })),
      ...labels.flatMap((l, k) => v.stealths.map((s, j) => el('td', {
        'data-method': k === 0 ? 'optimal' : 'exact', 'data-strategy': l, 'data-stealth': String(s), 'data-point': at,
        'data-value': String(p.wins[k][j]), text: percent(p.wins[k][j]),
      }))),
    ]));
  }
}

// ---------------------------------------------------------------- exports

function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function exportCsv() {
  if (state.game === 'annulus') {
    const sweep = state.mode === 'sweep';
    const csv = sweep ? asweep && asweep.csv : aview && aview.csv;
    if (csv) download(sweep ? 'raven-annulus-explore.csv' : 'raven-annulus-solve.csv', new Blob([csv], { type: 'text/csv' }));
    else setStatus('The CSV is ready once the numbers are', 0, 1);
    return;
  }
  const text = state.mode === 'curves' ? view && view.csv : sweepView && sweepView.csv;
  if (!text) {
    setStatus('The CSV is ready once the numbers are', 0, 1);
    return;
  }
  download(state.mode === 'curves' ? 'raven-solve.csv' : 'raven-explore.csv', new Blob([text], { type: 'text/csv' }));
}

// The chart box of the view shown.
function chartBox() {
  const prefix = state.game === 'annulus' ? 'a-' : '';
  return $(state.mode === 'curves' ? `${prefix}chart` : `${prefix}sweep-chart`);
}

function chartSvgText() {
  const node = chartBox().querySelector('svg');
  return node ? new XMLSerializer().serializeToString(node) : null;
}

function exportSvg() {
  const text = chartSvgText();
  if (text) download('raven-chart.svg', new Blob([text], { type: 'image/svg+xml' }));
}

function exportPng() {
  const text = chartSvgText();
  if (!text) return;
  const node = chartBox().querySelector('svg');
  const w = Number(node.getAttribute('width'));
  const h = Number(node.getAttribute('height'));
  const image = new Image();
  image.onload = () => {
    const canvas = el('canvas', { width: 2 * w, height: 2 * h });
    const context = canvas.getContext('2d');
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    canvas.toBlob((blob) => download('raven-chart.png', blob), 'image/png');
  };
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
}

// ---------------------------------------------------------------- start

// One request answered on the page's own thread: for the quick ones (the engine's list of
// settings), which a worker's start would only delay.
async function ask(request) {
  const messages = [];
  const decoder = new TextDecoder();
  let instance;
  const imports = {
    env: {
      progress(ptr, len) {
        messages.push(JSON.parse(decoder.decode(new Uint8Array(instance.exports.memory.buffer, ptr, len))));
      },
    },
  };
  instance = await WebAssembly.instantiate(wasmModule, imports);
  const text = new TextEncoder().encode(JSON.stringify(request));
  const ptr = instance.exports.alloc(text.length);
  new Uint8Array(instance.exports.memory.buffer, ptr, text.length).set(text);
  instance.exports.compute(ptr, text.length);
  return messages;
}

async function main() {
  try {
    // The browser's own decoder where it has one: a loop over 1.5 million characters takes
    // a noticeable part of the page's start.
    const bytes = Uint8Array.fromBase64
      ? Uint8Array.fromBase64(RAVEN_WASM.trim())
      : Uint8Array.from(atob(RAVEN_WASM), (c) => c.charCodeAt(0));
    wasmModule = await WebAssembly.compile(bytes);
    workerUrl = URL.createObjectURL(new Blob([$('worker-source').textContent], { type: 'text/javascript' }));
    const answers = await ask({ op: 'meta' });
    meta = answers.find((m) => m.type === 'meta');
    if (!meta) throw new Error((answers.find((m) => m.type === 'error') || {}).message || 'no list of settings');
    const annulus = await ask({ op: 'meta', game: 'annulus' });
    ameta = annulus.find((m) => m.type === 'meta');
    if (!ameta) throw new Error((annulus.find((m) => m.type === 'error') || {}).message || 'no list of Annulus rules');
    astate = adefaults();
  } catch (e) {
    setStatus(`The engine could not start: ${e.message}`, 0, 1);
    document.body.dataset.state = 'error';
    return;
  }
  buildControls();
  buildAnnulusControls();
  $('game').addEventListener('change', (e) => {
    state.game = e.target.value === 'annulus' ? 'annulus' : 'purple-raven';
    changed();
  });
  readUrl();
  window.addEventListener('hashchange', () => {
    if (location.hash.slice(1) === currentHash) return;
    readUrl();
    changed();
  });
  changed();
}

let currentHash = '';
const replaceState = history.replaceState.bind(history);
history.replaceState = (data, unused, url) => {
  currentHash = String(url).slice(1);
  replaceState(data, unused, url);
};

main();
