/* Table-level photo: read the sheet, then open the right player's page with the reading to review.
 * A sheet printed for this table carries its seat in the QR code; otherwise the player picks the name. */
(function () {
  'use strict';
  var pd = JSON.parse(document.getElementById('photo-data').textContent);
  var input = document.getElementById('photo-input');
  var progress = document.getElementById('photo-progress');
  var errorBox = document.getElementById('photo-error');
  var whose = document.getElementById('whose');
  var reading = null;

  function fail(message) { errorBox.textContent = message; errorBox.classList.toggle('hidden', !message); }

  function open(seat) {
    sessionStorage.setItem('mapsmith-reading', JSON.stringify({ code: pd.code, seat: seat, reading: reading }));
    window.location.href = pd.tableUrl + '/player/' + seat;
  }

  whose.addEventListener('click', function (e) {
    var b = e.target.closest('button.whose');
    if (b && reading) open(parseInt(b.dataset.seat, 10));
  });

  input.addEventListener('change', function () {
    var file = input.files && input.files[0];
    if (!file) return;
    var fd = new FormData();
    fd.append('photo', file);
    fd.append('side', pd.side);
    fail('');
    whose.classList.add('hidden');
    progress.classList.remove('hidden');
    window.Mapsmith.postForm(pd.photoUrl, fd).then(function (res) {
      if (!res.ok) { fail(res.data.error || ('Error ' + res.status)); return; }
      var r = res.data;
      if (r.side !== pd.side) { fail(pd.sideMismatch.replace('{side}', r.side)); return; }
      if (r.table && r.table !== pd.code) { fail(pd.otherTable.replace('{table}', r.table)); return; }
      reading = r;
      var seat = typeof r.seat === 'number' ? r.seat - 1 : -1;
      if (r.table === pd.code && seat >= 0 && seat < pd.players.length) { open(seat); return; }
      whose.classList.remove('hidden');
    }).catch(function () { fail(pd.network); }).then(function () {
      progress.classList.add('hidden');
      input.value = '';
    });
  });
}());
