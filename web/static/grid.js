/* The map editor: paint an 11x11 Cartographers map by hand or review a photo's reading,
 * then score it (single map) or save it to a player's score sheet (table).
 * No rules here: the server scores; this file only edits a grid of terrain words.
 */
(function () {
  'use strict';
  var M = window.Mapsmith;
  var N = 11;
  var pd = JSON.parse(document.getElementById('page-data').textContent);
  var D = pd.data;
  var L = pd.labels || {};
  var gridEl = document.getElementById('grid');
  var paletteEl = document.getElementById('palette');
  var coinsEl = document.getElementById('coins');
  var cells = [];
  var state = { side: pd.side || 'A', grid: null, locked: {}, ruins: {}, doubt: {}, marks: {}, selected: 'forest' };

  function key(r, c) { return r * N + c; }

  function blank(side) {
    var g = [];
    for (var r = 0; r < N; r++) { g.push([]); for (var c = 0; c < N; c++) g[r].push('empty'); }
    D.sides[side].mountains.forEach(function (p) { g[p[0]][p[1]] = 'mountain'; });
    D.sides[side].wastelands.forEach(function (p) { g[p[0]][p[1]] = 'wasteland'; });
    (D.sides[side].predrawn || []).forEach(function (p) { g[p[0]][p[1]] = p[2]; });  // a table's own side
    return g;
  }

  function setSide(side, grid) {
    state.side = side;
    state.locked = {}; state.ruins = {}; state.doubt = {};
    D.sides[side].mountains.concat(D.sides[side].wastelands, D.sides[side].predrawn || []).forEach(function (p) { state.locked[key(p[0], p[1])] = true; });
    D.sides[side].ruins.forEach(function (p) { state.ruins[key(p[0], p[1])] = true; });
    state.grid = grid ? grid.map(function (row) { return row.slice(); }) : blank(side);
    clearHighlights();
    renderAll();
  }

  function build() {
    gridEl.innerHTML = '';
    cells = [];
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        var el = document.createElement('button');
        el.type = 'button';
        el.className = 'cell';
        el.dataset.r = r; el.dataset.c = c;
        el.tabIndex = r === 0 && c === 0 ? 0 : -1;  // one tab stop for the grid; arrows move inside it
        el.innerHTML = '<svg class="icon" aria-hidden="true"><use href=""></use></svg>';
        gridEl.appendChild(el);
        cells.push(el);
      }
    }
  }

  function renderCell(r, c) {
    var k = key(r, c), t = state.grid[r][c], el = cells[k];
    var cls = 'cell t-' + t;
    if (state.ruins[k]) cls += ' ruins';
    if (state.locked[k]) cls += ' locked';
    if (state.doubt[k]) cls += ' doubt';
    if (state.marks[k]) cls += ' ref-bad';
    el.className = cls;
    if (state.marks[k]) el.title = state.marks[k]; else el.removeAttribute('title');
    el.dataset.terrain = t;
    var iconName = t === 'empty' ? (state.ruins[k] ? 'ruins' : '') : t;
    el.querySelector('use').setAttribute('href', iconName ? '#i-' + iconName : '');
    // ruins are announced as ruins: "B6: ruins" while empty, "B6: farm (ruins)" once drawn on
    var what = D.terrains[t];
    if (state.ruins[k]) what = t === 'empty' ? D.ruinsName : what + ' (' + D.ruinsName + ')';
    el.setAttribute('aria-label', String.fromCharCode(65 + r) + (c + 1) + ': ' + what);
  }

  function renderAll() { for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) renderCell(r, c); }

  /* Keyboard: each paintable terrain gets a digit (1-5 in palette order, 0 for empty) and the
   * first letter of its name in the page language that no earlier terrain took. */
  var keys = {};
  var keyOf = {};
  (function assignKeys() {
    D.paintable.forEach(function (t, i) {
      var digit = t === 'empty' ? '0' : String(i + 1);
      keys[digit] = t;
      var name = (D.terrains[t] || t).toLocaleLowerCase(document.documentElement.lang || 'en');
      for (var j = 0; j < name.length; j++) {
        var ch = name.charAt(j);
        if (/[a-z]/.test(ch) && !keys[ch]) { keys[ch] = t; keyOf[t] = digit + ' / ' + ch.toUpperCase(); return; }
      }
      keyOf[t] = digit;
    });
  }());

  function selectTerrain(t) {
    state.selected = t;
    paletteEl.querySelectorAll('button').forEach(function (x) {
      x.setAttribute('aria-pressed', x.dataset.terrain === t ? 'true' : 'false');
    });
  }

  function buildPalette() {
    paletteEl.innerHTML = '';
    D.paintable.forEach(function (t) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 't-' + t;
      b.dataset.terrain = t;
      b.setAttribute('aria-pressed', t === state.selected ? 'true' : 'false');
      b.innerHTML = '<svg class="icon" aria-hidden="true"><use href="#i-' + t + '"></use></svg> ';
      b.appendChild(document.createTextNode(D.terrains[t]));
      var hint = document.createElement('kbd');
      hint.textContent = keyOf[t];
      b.appendChild(hint);
      b.setAttribute('aria-keyshortcuts', keyOf[t].replace(' / ', ' '));
      b.addEventListener('click', function () { selectTerrain(t); });
      paletteEl.appendChild(b);
    });
  }

  function paintAt(el) {
    if (!el || !el.classList || !el.classList.contains('cell')) return;
    var r = +el.dataset.r, c = +el.dataset.c, k = key(r, c);
    if (state.locked[k] || state.grid[r][c] === state.selected) return;
    state.grid[r][c] = state.selected;
    delete state.doubt[k];
    clearHighlights();
    renderCell(r, c);
    document.dispatchEvent(new CustomEvent('mapsmith:edited'));
  }

  function focusCell(r, c) {
    r = Math.max(0, Math.min(N - 1, r)); c = Math.max(0, Math.min(N - 1, c));
    cells.forEach(function (el) { el.tabIndex = -1; });
    var el = cells[key(r, c)];
    el.tabIndex = 0;
    el.focus();
  }

  document.addEventListener('keydown', function (e) {
    if (e.key === 'Tab' || (e.target.closest && e.target.closest('#grid'))) document.body.classList.add('keyboard');
  });

  var MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  gridEl.addEventListener('keydown', function (e) {
    var el = e.target.closest && e.target.closest('.cell');
    if (!el || e.altKey || e.ctrlKey || e.metaKey) return;
    var r = +el.dataset.r, c = +el.dataset.c;
    var k = e.key && e.key.length === 1 ? e.key.toLocaleLowerCase(document.documentElement.lang || 'en') : e.key;
    if (MOVES[e.key]) { focusCell(r + MOVES[e.key][0], c + MOVES[e.key][1]); }
    else if (e.key === 'Home') { focusCell(r, 0); }
    else if (e.key === 'End') { focusCell(r, N - 1); }
    else if (keys[k]) { selectTerrain(keys[k]); paintAt(el); }
    else if (e.key === 'Delete' || e.key === 'Backspace') { selectTerrain('empty'); paintAt(el); }
    else if (e.key === ' ' || e.key === 'Enter') { paintAt(el); }
    else return;
    e.preventDefault();
  });

  /* Large squares: on a small phone the 11 columns are ~27 px wide, easy to miss with a thumb. Zoomed, every
   * square is at least 40 px, the grid scrolls inside its frame, and a square is painted by a plain tap
   * (a click), so a swipe that scrolls never paints. On by default on small touch screens. */
  var zoomBtn = document.getElementById('grid-zoom');
  function zoomed() { return gridEl.classList.contains('zoomed'); }
  function setZoom(on) {
    gridEl.classList.toggle('zoomed', on);
    if (zoomBtn) zoomBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  if (zoomBtn) {
    zoomBtn.addEventListener('click', function () { setZoom(!zoomed()); });
    setZoom(window.matchMedia && window.matchMedia('(pointer: coarse) and (max-width: 480px)').matches);
  }
  gridEl.addEventListener('click', function (e) {
    if (!zoomed()) return;
    var el = e.target.closest && e.target.closest('.cell');
    if (el) { cells.forEach(function (x) { x.tabIndex = -1; }); el.tabIndex = 0; paintAt(el); }
  });

  var painting = false;
  gridEl.addEventListener('pointerdown', function (e) {
    if (zoomed()) return;  // zoomed: the tap (click) paints, a swipe scrolls
    painting = true;
    var el = e.target.closest('.cell');
    if (el) { cells.forEach(function (x) { x.tabIndex = -1; }); el.tabIndex = 0; }
    paintAt(el);
    e.preventDefault();
  });
  gridEl.addEventListener('pointermove', function (e) {
    if (!painting || zoomed()) return;
    var el = document.elementFromPoint(e.clientX, e.clientY);
    paintAt(el && el.closest ? el.closest('.cell') : null);
  });
  window.addEventListener('pointerup', function () { painting = false; });
  window.addEventListener('pointercancel', function () { painting = false; });

  /* -- breakdown ------------------------------------------------------------------ */
  function clearHighlights() {
    cells.forEach(function (el) { el.classList.remove('hl', 'hl-neg'); });
    document.querySelectorAll('#breakdown li.on').forEach(function (li) { li.classList.remove('on'); });
  }

  function highlight(list, negative) {
    (list || []).forEach(function (p) { var el = cells[key(p[0], p[1])]; if (el) el.classList.add(negative ? 'hl-neg' : 'hl'); });
  }

  function line(label, points, cellsList, negative) {
    var li = document.createElement('li');
    var name = document.createElement('span'); name.textContent = label;
    var pts = document.createElement('b'); pts.textContent = points;
    li.appendChild(name); li.appendChild(pts);
    if (cellsList && cellsList.length) {
      li.tabIndex = 0;
      li.addEventListener('click', function () {
        var was = li.classList.contains('on');
        clearHighlights();
        if (!was) { li.classList.add('on'); highlight(cellsList, negative); }
      });
    }
    return li;
  }

  function showBreakdown(detail) {
    var panel = document.getElementById('breakdown-panel');
    var list = document.getElementById('breakdown');
    list.innerHTML = '';
    detail.edicts.forEach(function (e) {
      var card = D.cards[e.card];
      list.appendChild(line(card ? card.name : e.card, e.points, e.cells));
    });
    list.appendChild(line(L.coins, detail.coins, detail.mountain_coins ? detail.mountain_coins.cells : null));
    list.appendChild(line(L.monsters, detail.monsters.points ? '−' + detail.monsters.points : '0', detail.monsters.cells, true));
    document.getElementById('score-total').textContent = L.total + ': ' + detail.total;
    panel.classList.remove('hidden');
    panel.dataset.total = detail.total;
    clearHighlights();
    panel.scrollIntoView({ block: 'nearest' });
  }

  function coins() {
    var v = parseInt(coinsEl.value, 10);
    return isNaN(v) ? 0 : v;
  }

  /* -- photo ---------------------------------------------------------------------- */
  var photoInput = document.getElementById('photo-input');
  function showPhotoError(message) {
    var box = document.getElementById('photo-error');
    box.textContent = message;
    box.classList.toggle('hidden', !message);
  }

  function applyReading(reading) {
    if (reading.side_info && !D.sides[reading.side]) D.sides[reading.side] = reading.side_info;
    setSide(reading.side, reading.grid);
    (reading.doubtful || []).forEach(function (p) { state.doubt[key(p[0], p[1])] = true; });
    renderAll();
    if (typeof reading.coins === 'number') coinsEl.value = reading.coins;
    var review = document.getElementById('photo-review');
    var img = document.getElementById('photo-overlay');
    if (reading.overlay) { img.src = reading.overlay; img.classList.remove('hidden'); } else { img.classList.add('hidden'); }
    var warnings = document.getElementById('photo-warnings');
    warnings.innerHTML = '';
    (reading.warnings || []).forEach(function (w, i) {
      var li = document.createElement('li');
      li.textContent = w;
      if (reading.warning_codes && reading.warning_codes[i]) li.dataset.code = reading.warning_codes[i];
      warnings.appendChild(li);
    });
    review.classList.remove('hidden');
    document.getElementById('editor-panel').scrollIntoView({ block: 'start' });
    M.lastReading = reading;  // teach.js asks "Which terrain is this?" for the reading's unsure groups
    document.dispatchEvent(new CustomEvent('mapsmith:reading', { detail: reading }));
  }
  M.applyReading = applyReading;
  M.currentMap = function () { return { side: state.side, grid: state.grid }; };

  function handleReading(reading) {
    if (pd.mode === 'single') {
      var radio = document.querySelector('#side-choice input[value="' + reading.side + '"]');
      if (radio) radio.checked = true;
      applyReading(reading);
      return;
    }
    if (reading.side !== pd.side) { showPhotoError(L.sideMismatch.replace('{side}', reading.side)); return; }
    if (reading.table && reading.table !== pd.code) { showPhotoError(L.otherTable.replace('{table}', reading.table)); return; }
    var seat = typeof reading.seat === 'number' ? reading.seat - 1 : null;
    if (seat !== null && seat !== pd.seat && seat >= 0 && seat < pd.players.length) {
      // A sheet printed for this table knows whose it is: file it to that player.
      sessionStorage.setItem('mapsmith-reading', JSON.stringify({ code: pd.code, seat: seat, reading: reading }));
      window.location.href = pd.tableUrl + '/player/' + seat + (pd.season !== null ? '?season=' + pd.season : '');
      return;
    }
    applyReading(reading);
  }

  if (photoInput) {
    photoInput.addEventListener('change', function () {
      var file = photoInput.files && photoInput.files[0];
      if (!file) return;
      var fd = new FormData();
      fd.append('photo', file);
      fd.append('side', pd.mode === 'single' ? '' : pd.side);
      if (pd.mode !== 'single') fd.append('heroes', pd.heroes ? '1' : '0');  // the table's deck says
      showPhotoError('');
      document.getElementById('photo-review').classList.add('hidden');
      var progress = document.getElementById('photo-progress');
      progress.classList.remove('hidden');
      M.postForm(pd.photoUrl, fd).then(function (res) {
        if (!res.ok) { showPhotoError(res.data.error || ('Error ' + res.status)); return; }
        handleReading(res.data);
      }).catch(function () { showPhotoError(L.network); }).then(function () {
        progress.classList.add('hidden');
        photoInput.value = '';
      });
    });
  }

  /* -- actions -------------------------------------------------------------------- */
  var scoreBtn = document.getElementById('score-btn');
  var saveMapBtn = document.getElementById('save-map-btn');

  function busy(btn, on) { if (btn) btn.disabled = on; }

  if (pd.mode === 'single') {
    document.querySelectorAll('#side-choice input').forEach(function (radio) {
      radio.addEventListener('change', function () { if (radio.checked) setSide(radio.value); });
    });
    scoreBtn.addEventListener('click', function () {
      var chosen = Array.prototype.map.call(document.querySelectorAll('input[name=card]:checked'), function (x) { return x.value; });
      if (chosen.length < 1 || chosen.length > 4) { M.flash(L.chooseCards, 'error'); return; }
      busy(scoreBtn, true);
      M.postJSON(pd.scoreUrl, { side: state.side, grid: state.grid, cards: chosen, coins: coins() }).then(function (res) {
        if (!res.ok) { M.flash(res.data.error, 'error'); return; }
        M.flash('');
        showBreakdown(res.data);
      }).catch(function () { M.flash(L.network, 'error'); }).then(function () { busy(scoreBtn, false); });
    });
  } else {
    if (scoreBtn) {
      scoreBtn.addEventListener('click', function () {
        busy(scoreBtn, true);
        M.postJSON(pd.actionUrl, { action: 'score', player: pd.seat, season: pd.season, grid: state.grid,
          coins: coins(), version: pd.version }).then(function (res) {
          if (!res.ok) { M.flash(res.data.error, 'error'); return; }
          pd.version = res.data.version;
          M.flash(L.saved, 'info');
          if (res.data.result && res.data.result.detail) showBreakdown(res.data.result.detail);
          document.dispatchEvent(new CustomEvent('mapsmith:saved'));
        }).catch(function () { M.flash(L.network, 'error'); }).then(function () { busy(scoreBtn, false); });
      });
    }
    if (saveMapBtn) {
      saveMapBtn.addEventListener('click', function () {
        busy(saveMapBtn, true);
        M.postJSON(pd.actionUrl, { action: 'map', player: pd.seat, grid: state.grid, version: pd.version }).then(function (res) {
          if (!res.ok) { M.flash(res.data.error, 'error'); return; }
          pd.version = res.data.version;
          M.flash(L.mapSaved, 'info');
          document.dispatchEvent(new CustomEvent('mapsmith:saved'));
        }).catch(function () { M.flash(L.network, 'error'); }).then(function () { busy(saveMapBtn, false); });
      });
    }
    document.addEventListener('mapsmith:done', function (e) {
      if (e.target.id === 'manual-form') M.flash(L.saved + ' ' + L.total + ': ' + (e.detail.result ? e.detail.result.total : ''), 'info');
    });
  }

  build();
  buildPalette();
  setSide(state.side, pd.grid);
  if (pd.coins !== undefined && pd.coins !== null) coinsEl.value = pd.coins;
  if (pd.entry && pd.entry.detail) showBreakdown(pd.entry.detail);
  var stashed = sessionStorage.getItem('mapsmith-reading');
  if (stashed && pd.mode === 'player') {
    try {
      var s = JSON.parse(stashed);
      if (s.code === pd.code && s.seat === pd.seat) { sessionStorage.removeItem('mapsmith-reading'); applyReading(s.reading); }
    } catch (err) { sessionStorage.removeItem('mapsmith-reading'); }
  }
  /* Marks from the season referee: cells that don't fit the cards, titled with the likely card. */
  function mark(list) {
    state.marks = {};
    (list || []).forEach(function (m) { state.marks[key(m[0], m[1])] = m[2] || ''; });
    renderAll();
  }
  window.MapsmithGrid = { state: state, setSide: setSide, showBreakdown: showBreakdown, applyReading: applyReading,
    mark: mark };
}());
