/* The season referee on the player page: after a photo, an edit or a save, ask the server whether the map's new
 * drawings match the season's cards; show its verdict, mark the cells that don't fit, and fill the coin track
 * from coin shapes + surrounded mountains (the player only confirms). Nothing here blocks saving. */
(function () {
  'use strict';
  var M = window.Mapsmith;
  var G = window.MapsmithGrid;
  var panel = document.getElementById('referee-panel');
  if (!panel || !G) return;
  var body = document.getElementById('referee-body');
  var coinsEl = document.getElementById('coins');
  var season = parseInt(panel.dataset.season, 10);
  var typedCoins = false;  // once the player types a coin count, the referee only advises
  var photoCoins = null;
  var timer = null;
  var asked = 0;

  if (coinsEl) coinsEl.addEventListener('input', function () { typedCoins = true; });

  function check() {
    var mine = ++asked;
    M.postJSON(panel.dataset.checkUrl, { season: season, grid: G.state.grid, photo_coins: photoCoins })
      .then(function (res) {
        if (mine !== asked || !res.ok) return;  // a newer check is on its way, or the map is not valid yet
        body.innerHTML = res.data.html;
        var none = document.getElementById('referee-none');
        if (none && res.data.state !== 'none') none.remove();
        G.mark(res.data.marks || []);
        if (res.data.coins && coinsEl && !typedCoins) coinsEl.value = res.data.coins.total;
        panel.dataset.state = res.data.state;
      }).catch(function () { /* offline: the verdict waits for the next change */ });
  }

  function soon() { clearTimeout(timer); timer = setTimeout(check, 400); }

  document.addEventListener('mapsmith:edited', soon);
  document.addEventListener('mapsmith:saved', check);
  document.addEventListener('mapsmith:reading', function (e) {
    photoCoins = e.detail && typeof e.detail.coins === 'number' ? e.detail.coins : null;
    typedCoins = false;
    check();
  });
  // on load the server has already judged the saved map: mark its cells (only sent when the editor shows that map)
  try { G.mark(JSON.parse(panel.dataset.marks || '[]')); } catch (err) { /* no marks */ }
}());
