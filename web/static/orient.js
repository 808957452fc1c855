/* "Is this the top of your sheet?": when the reader could not tell which way up an unmarked sheet lies
 * (`orientation_unsure`), the review asks once, before anything else, showing the straightened sheet.
 * "Yes" tells the server, which reads the kept photo again with this way up confirmed (its cells lose the doubt
 * about the way up: fewer are marked), shows that reading and hides the question; later re-reads stay this way up;
 * "No, turn it round" asks the server to read the kept photo again a half turn round ({turn: true});
 * "The left/right edge is the top" asks for that photo read again a quarter turn round ({quarter_turns: 1 or 3},
 * clockwise) and shows that reading. Plain buttons in a labelled group, focus moved to the question and a
 * role=status line: keyboard and screen readers work. */
(function () {
  'use strict';
  var od = JSON.parse(document.getElementById('orient-data').textContent);
  var panel = document.getElementById('orient');
  var review = document.getElementById('photo-review');
  var title = document.getElementById('orient-title');
  var image = document.getElementById('orient-image');
  var yes = document.getElementById('orient-yes');
  var turners = [document.getElementById('orient-no'), document.getElementById('orient-left'),
                 document.getElementById('orient-right')];
  var status = document.getElementById('orient-status');
  var answered = {};  // photo token → true once the player answered for that photo
  var token = null;

  function say(text) { status.textContent = text; }
  function busy(on) {
    yes.disabled = on;
    turners.forEach(function (b) { b.disabled = on; });
  }

  function hide() {
    panel.classList.add('hidden');
    if (review) review.classList.remove('asking-top');
  }

  function render(reading) {
    token = reading.photo_token || null;
    busy(false);
    if (!reading.orientation_unsure || !token || answered[token]) { hide(); return; }
    if (reading.overlay) { image.src = reading.overlay; image.classList.remove('hidden'); } else { image.classList.add('hidden'); }
    say('');
    panel.classList.remove('hidden');
    if (review) review.classList.add('asking-top');  // the rest of the review waits for the answer
    panel.scrollIntoView({ block: 'start' });
    title.focus();
  }

  function post(body) {
    return window.Mapsmith.postJSON(od.turnUrl.replace('TOKEN', encodeURIComponent(token)), body);
  }

  yes.addEventListener('click', function () {
    if (!token) return;
    var asked = token;
    busy(true);
    say(od.rereading);
    // read again with this way up confirmed: its cells no longer carry the doubt about the way up
    post({ turn: false }).then(function (res) {
      answered[asked] = true;
      if (res.ok && res.data && res.data.grid) window.Mapsmith.applyReading(res.data);  // render() hides
      else hide();
      say(od.kept);
    }).catch(function () { answered[asked] = true; hide(); say(od.kept); });
  });

  turners.forEach(function (button) {
    button.addEventListener('click', function () {
      if (!token) return;
      var asked = token;
      var turns = Number(button.getAttribute('data-turns'));
      busy(true);
      say(od.turning);
      // the half turn keeps its old request, so a server of either age understands it
      post(turns === 2 ? { turn: true } : { quarter_turns: turns }).then(function (res) {
        if (!res.ok) { busy(false); say(res.data.error || ('Error ' + res.status)); return; }
        answered[asked] = true;
        window.Mapsmith.applyReading(res.data);  // fires mapsmith:reading → render() hides the question
        say(turns === 2 ? od.turned : od.quarter);
      }).catch(function () { busy(false); say(od.network); });
    });
  });

  document.addEventListener('mapsmith:reading', function (e) { render(e.detail || {}); });
  if (window.Mapsmith && window.Mapsmith.lastReading) render(window.Mapsmith.lastReading);
}());
