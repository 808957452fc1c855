/* Table-level photo: read every sheet in it, then open the right player's page with each reading to review.
 * A sheet printed for this table carries its seat in the QR code; otherwise the player picks the name.
 * A photo of one sheet behaves as before; a photo of several lists them (kept in sessionStorage, so the
 * page shows what is left when the player comes back from a review). */
(function () {
  'use strict';
  var pd = JSON.parse(document.getElementById('photo-data').textContent);
  var input = document.getElementById('photo-input');
  var progress = document.getElementById('photo-progress');
  var errorBox = document.getElementById('photo-error');
  var whose = document.getElementById('whose');
  var panel = document.getElementById('sheets-panel');
  var list = document.getElementById('sheets');
  var STASH = 'mapsmith-table-sheets';
  var reading = null;
  var table = null;  // {code, sheets: [...], seats: {i: seat}, done: {i: true}}

  function fail(message) { errorBox.textContent = message; errorBox.classList.toggle('hidden', !message); }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
  }

  function open(seat, r) {
    var copy = {};
    Object.keys(r).forEach(function (k) { if (k !== 'thumb') copy[k] = r[k]; });
    sessionStorage.setItem('mapsmith-reading', JSON.stringify({ code: pd.code, seat: seat, reading: copy }));
    window.location.href = pd.tableUrl + '/player/' + seat;
  }

  function qrSeat(r) {
    var seat = typeof r.seat === 'number' ? r.seat - 1 : -1;
    return r.table === pd.code && seat >= 0 && seat < pd.players.length ? seat : -1;
  }

  function save() {
    try { sessionStorage.setItem(STASH, JSON.stringify(table)); } catch (err) { /* too large: not kept */ }
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderSheets() {
    list.innerHTML = '';
    var n = table.sheets.length;
    document.getElementById('sheets-title').textContent = fill(pd.found, { n: n });
    table.sheets.forEach(function (r, i) {
      var li = el('li', 'sheet-item');
      li.dataset.index = i;
      var label = fill(pd.sheetOf, { i: i + 1, n: n });
      if (r.thumb) {
        var img = el('img', 'sheet-thumb');
        img.src = r.thumb;
        img.alt = label;
        li.appendChild(img);
      }
      var body = el('div', 'sheet-body');
      var title = el('h3', null, label);
      body.appendChild(title);
      var status = el('p', 'sheet-status');
      status.id = 'sheet-status-' + i;
      body.appendChild(status);
      li.appendChild(body);
      list.appendChild(li);
      if (r.error) { status.textContent = fill(pd.unread, { why: r.error }); return; }
      if (r.side !== pd.side) { status.textContent = pd.sideMismatch.replace('{side}', r.side); return; }
      var seat = table.seats[i];
      var byQr = qrSeat(r) >= 0;
      if (byQr) {
        status.textContent = fill(pd.filedByQr, { name: pd.players[seat] });
      } else {
        var notes = [];
        if (r.table && r.table !== pd.code) notes.push(pd.otherTable.replace('{table}', r.table));
        notes.push(seat === undefined ? pd.whoseSheet : fill(pd.assigned, { name: pd.players[seat] }));
        status.textContent = notes.join(' ');
        var group = el('div', 'row assign-row');
        group.setAttribute('role', 'group');
        group.setAttribute('aria-label', label + ': ' + pd.whoseSheet);
        pd.players.forEach(function (name, s) {
          var b = el('button', 'assign', name);
          b.type = 'button';
          b.dataset.index = i;
          b.dataset.seat = s;
          b.setAttribute('aria-pressed', seat === s ? 'true' : 'false');
          group.appendChild(b);
        });
        body.appendChild(group);
      }
      if (seat !== undefined) {
        var review = el('button', 'btn primary review', fill(pd.review, { name: pd.players[seat] }));
        review.type = 'button';
        review.dataset.index = i;
        body.appendChild(review);
        if (table.done[i]) body.appendChild(el('p', 'muted sheet-done', pd.reviewed));
      }
    });
    panel.classList.remove('hidden');
  }

  list.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b || !table) return;
    var i = parseInt(b.dataset.index, 10);
    if (b.classList.contains('assign')) {
      table.seats[i] = parseInt(b.dataset.seat, 10);
      save();
      renderSheets();
      var again = list.querySelector('.review[data-index="' + i + '"]');
      if (again) again.focus();  // the next step, for keyboard and screen-reader users
    } else if (b.classList.contains('review') && table.seats[i] !== undefined) {
      table.done[i] = true;
      save();
      open(table.seats[i], table.sheets[i]);
    }
  });

  whose.addEventListener('click', function (e) {
    var b = e.target.closest('button.whose');
    if (b && reading) open(parseInt(b.dataset.seat, 10), reading);
  });

  function single(r) {
    if (r.error) { fail(r.error); return; }
    if (r.side !== pd.side) { fail(pd.sideMismatch.replace('{side}', r.side)); return; }
    if (r.table && r.table !== pd.code) { fail(pd.otherTable.replace('{table}', r.table)); return; }
    reading = r;
    var seat = qrSeat(r);
    if (seat >= 0) { open(seat, r); return; }
    whose.classList.remove('hidden');
  }

  function several(sheets) {
    table = { code: pd.code, sheets: sheets, seats: {}, done: {} };
    sheets.forEach(function (r, i) {
      if (!r.error && r.side === pd.side && qrSeat(r) >= 0) table.seats[i] = qrSeat(r);
    });
    save();
    renderSheets();
    document.getElementById('sheets-title').focus();
  }

  input.addEventListener('change', function () {
    var file = input.files && input.files[0];
    if (!file) return;
    var fd = new FormData();
    fd.append('photo', file);
    fd.append('side', pd.side);
    fd.append('heroes', pd.heroes ? '1' : '0');  // the table's deck: heroes and destroyed monsters read or not
    fail('');
    whose.classList.add('hidden');
    panel.classList.add('hidden');
    sessionStorage.removeItem(STASH);
    progress.classList.remove('hidden');
    window.Mapsmith.postForm(pd.sheetsUrl, fd).then(function (res) {
      if (!res.ok) { fail(res.data.error || ('Error ' + res.status)); return; }
      var sheets = res.data.sheets || [];
      if (sheets.length === 1) single(sheets[0]); else several(sheets);
    }).catch(function () { fail(pd.network); }).then(function () {
      progress.classList.add('hidden');
      input.value = '';
    });
  });

  try {
    var kept = JSON.parse(sessionStorage.getItem(STASH) || 'null');
    if (kept && kept.code === pd.code && kept.sheets && kept.sheets.length > 1) { table = kept; renderSheets(); }
  } catch (err) { sessionStorage.removeItem(STASH); }
}());
