/* Teach by one tap: for each group of like squares whose name the reader is unsure of, show one cropped
 * example square and ask "Which terrain is this?". One answer names the whole group: the server reads the
 * same photo again (it keeps it for a few minutes; nothing is re-uploaded) and the review shows the new
 * reading with the squares that are still doubtful. Plain buttons: keyboard and screen readers work as is.
 * Also the opt-in "Keep this photo and my corrections": posted when the player saves or scores the map. */
(function () {
  'use strict';
  var td = JSON.parse(document.getElementById('teach-data').textContent);
  var panel = document.getElementById('teach');
  var list = document.getElementById('teach-questions');
  var status = document.getElementById('teach-status');
  var keep = document.getElementById('keep-photo');
  var token = null;
  var keptFor = null;

  function say(text) { status.textContent = text; }

  function question(ask, index) {
    var box = document.createElement('div');
    box.className = 'teach-q';
    box.dataset.group = ask.group;
    var qid = 'teach-q-' + ask.group;
    box.setAttribute('role', 'group');
    box.setAttribute('aria-labelledby', qid);
    var fig = document.createElement('figure');
    if (ask.image) {
      var img = document.createElement('img');
      img.src = ask.image;
      img.alt = td.cellAlt.replace('{row}', ask.cell[0] + 1).replace('{col}', ask.cell[1] + 1);
      fig.appendChild(img);
    }
    var cap = document.createElement('figcaption');
    cap.id = qid;
    cap.textContent = td.cellAlt.replace('{row}', ask.cell[0] + 1).replace('{col}', ask.cell[1] + 1) + '. ' +
      td.drawnLike.replace('{n}', ask.cells);
    fig.appendChild(cap);
    box.appendChild(fig);
    var row = document.createElement('div');
    row.className = 'teach-choices';
    td.terrains.forEach(function (t) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'teach-choice t-' + t.id;
      b.dataset.terrain = t.id;
      var lang = document.documentElement.lang || 'en';
      b.textContent = t.name.charAt(0).toLocaleUpperCase(lang) + t.name.slice(1);
      if (t.id === ask.guess) b.classList.add('guess');
      b.addEventListener('click', function () { answer(ask.group, t.id, box); });
      row.appendChild(b);
    });
    box.appendChild(row);
    return box;
  }

  function render(reading) {
    token = reading.photo_token || token;
    list.innerHTML = '';
    var asks = reading.ask || [];
    asks.forEach(function (a, i) { list.appendChild(question(a, i)); });
    panel.classList.toggle('hidden', asks.length === 0);
    var left = (reading.doubtful || []).length;
    if (asks.length === 0 && token && reading.groups && reading.groups.some(function (g) { return g.source === 'given'; })) {
      say(left ? td.left.replace('{n}', left) : td.allNamed);
    } else if (left) {
      say(td.left.replace('{n}', left));
    } else {
      say('');
    }
  }

  function answer(group, terrain, box) {
    if (!token) return;
    var names = {};
    names[group] = terrain;
    Array.prototype.forEach.call(list.querySelectorAll('button'), function (b) { b.disabled = true; });
    say(td.reading);
    window.Mapsmith.postJSON(td.namesUrl.replace('TOKEN', encodeURIComponent(token)), { names: names }).then(function (res) {
      if (!res.ok) { say(res.data.error || ('Error ' + res.status)); render(window.Mapsmith.lastReading || {}); return; }
      window.Mapsmith.applyReading(res.data);  // fires mapsmith:reading → render()
      var next = list.querySelector('.teach-choice');
      if (next) { next.focus(); } else { status.setAttribute('tabindex', '-1'); status.focus(); }
    }).catch(function () { say(td.network); render(window.Mapsmith.lastReading || {}); });
  }

  function keepNow() {
    if (!keep.checked || !token || keptFor === token || !window.Mapsmith.currentMap) return;
    keptFor = token;
    var m = window.Mapsmith.currentMap();
    window.Mapsmith.postJSON(td.keepUrl.replace('TOKEN', encodeURIComponent(token)), { side: m.side, grid: m.grid })
      .then(function (res) { if (res.ok) say(td.kept); else keptFor = null; })
      .catch(function () { keptFor = null; });
  }

  document.addEventListener('mapsmith:reading', function (e) { render(e.detail || {}); });
  document.addEventListener('click', function (e) {
    if (e.target.closest && e.target.closest('#save-map-btn, #score-btn')) keepNow();
  }, true);
  if (window.Mapsmith && window.Mapsmith.lastReading) render(window.Mapsmith.lastReading);
}());
