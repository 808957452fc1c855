/* Mapsmith: shared page behaviour. Plain JS, no build step.
 * - fetch helpers that send the CSRF token header and ask for JSON
 * - keep the screen awake where the browser allows it (secure context only)
 * - the table page: versioned short polling (204 = nothing new) and actions without reloads
 */
(function () {
  'use strict';
  var meta = document.querySelector('meta[name=csrf-token]');
  var csrf = meta ? meta.content : '';

  function parse(response) {
    return response.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { ok: response.ok, status: response.status, data: data || {} };
    });
  }

  function postJSON(url, body) {
    return fetch(url, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(body)
    }).then(parse);
  }

  function postForm(url, formData) {
    return fetch(url, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Accept': 'application/json', 'X-CSRF-Token': csrf }, body: formData
    }).then(parse);
  }

  function flash(message, kind) {
    var box = document.getElementById('flash');
    if (!box) {
      box = document.createElement('div');
      box.id = 'flash';
      box.setAttribute('role', 'alert');
      var main = document.getElementById('main');
      main.insertBefore(box, main.firstChild);
    }
    box.innerHTML = '';
    if (!message) return;
    var p = document.createElement('p');
    p.className = 'flash ' + (kind || 'info');
    p.textContent = message;
    box.appendChild(p);
    if (box.scrollIntoView && kind === 'error') box.scrollIntoView({ block: 'nearest' });
  }

  /* Wake Lock: only in secure contexts (https or localhost); elsewhere silently nothing. */
  var lock = null;
  function keepAwake() {
    if (!window.isSecureContext || !('wakeLock' in navigator) || document.hidden) return;
    navigator.wakeLock.request('screen').then(function (l) { lock = l; }).catch(function () { lock = null; });
  }
  document.addEventListener('visibilitychange', function () { if (!document.hidden && !lock) keepAwake(); });
  keepAwake();

  /* The table page. */
  var table = document.getElementById('table');
  var version = table ? parseInt(table.dataset.version, 10) : 0;
  var statusEl = document.getElementById('sync-status');
  var timer = null;
  var failures = 0;
  var interval = table ? (parseInt(table.dataset.interval, 10) || 1000) : 1000;

  function applyState(payload) {
    if (!table || !payload || typeof payload.version !== 'number' || typeof payload.html !== 'string') return;
    if (payload.version < version) return;
    version = payload.version;
    table.dataset.version = String(version);
    // a fold the player opened (e.g. their Knarr hand) stays open when the table is redrawn
    var open = [];
    table.querySelectorAll('details[id][open]').forEach(function (d) { open.push(d.id); });
    table.innerHTML = payload.html;
    open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    // the invitation sat on top until a second phone opened the table; then it folds away below the table
    var invite = document.getElementById('join-panel');
    if (invite && invite.hasAttribute('data-top') && table.querySelector('[data-joined="1"]')) {
      invite.removeAttribute('data-top');
      invite.classList.remove('top');
      invite.open = false;
      table.parentNode.insertBefore(invite, table.nextSibling);
    }
  }

  function setStatus(text) { if (statusEl) statusEl.textContent = text || ''; }

  function poll() {
    clearTimeout(timer);
    fetch(table.dataset.poll + '?v=' + version, {
      headers: { 'Accept': 'application/json' }, cache: 'no-store', credentials: 'same-origin'
    }).then(function (r) {
      if (r.status === 200) return r.json().then(applyState);
      if (r.status !== 204) throw new Error('status ' + r.status);
    }).then(function () {
      failures = 0;
      setStatus('');
    }).catch(function () {
      failures += 1;
      setStatus(table.dataset.offline || '…');
    }).then(function () {
      timer = setTimeout(poll, document.hidden ? 5 * interval : Math.min(interval * Math.pow(2, failures), 8000));
    });
  }

  if (table) {
    timer = setTimeout(poll, interval);
    document.addEventListener('visibilitychange', function () { if (!document.hidden) poll(); });
    window.addEventListener('online', poll);
  }

  /* The table code badge shows the invitation (code and QR) wherever it is on the page. */
  document.addEventListener('click', function (event) {
    var badge = event.target.closest && event.target.closest('[data-show-invite]');
    var invite = document.getElementById('join-panel');
    if (!badge || !invite) return;
    invite.open = true;
    if (invite.scrollIntoView) invite.scrollIntoView({ block: 'start' });
  });

  /* Forms marked js-action are sent with fetch; the answer carries the fresh table. */
  document.addEventListener('submit', function (event) {
    var form = event.target.closest && event.target.closest('form.js-action');
    if (!form) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    postForm(form.getAttribute('action'), data).then(function (res) {
      applyState(res.data);
      if (!res.ok) {
        flash(res.data.error || ('Error ' + res.status), 'error');
      } else {
        flash('');
        form.dispatchEvent(new CustomEvent('mapsmith:done', { detail: res.data, bubbles: true }));
      }
    }).catch(function () {
      var offline = document.querySelector('meta[name=offline-text]');
      flash(offline ? offline.content : 'Network error', 'error');
    }).then(function () {
      buttons.forEach(function (b) { b.disabled = false; });
    });
  });

  window.Mapsmith = { csrf: csrf, postJSON: postJSON, postForm: postForm, flash: flash, applyState: applyState };
}());
