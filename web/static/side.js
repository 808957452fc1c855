/* The own-side editor: tap cells to mark what is printed on the sheet; the cells travel as JSON in the form. */
(function () {
  'use strict';
  var grid = document.getElementById('side-grid');
  var input = document.getElementById('side-cells');
  var cells = JSON.parse(input.value || '{}');
  var selected = 'mountain';
  var N = 11;
  function paint(el) {
    var k = el.dataset.key, f = cells[k] || '';
    el.className = 'cell t-' + (f === '' || f === 'ruins' ? 'empty' : f) + (f === 'ruins' ? ' ruins' : '');
    el.dataset.feature = f;
    el.querySelector('use').setAttribute('href', f ? '#i-' + f : '');
    el.setAttribute('aria-label', String.fromCharCode(65 + +k.split(',')[0]) + (+k.split(',')[1] + 1) + ': ' + (f || '-'));
  }
  for (var r = 0; r < N; r++) {
    for (var c = 0; c < N; c++) {
      var el = document.createElement('button');
      el.type = 'button';
      el.dataset.key = r + ',' + c;
      el.innerHTML = '<svg class="icon" aria-hidden="true"><use href=""></use></svg>';
      el.addEventListener('click', function () {
        var k = this.dataset.key;
        if (selected) cells[k] = selected; else delete cells[k];
        input.value = JSON.stringify(cells);
        paint(this);
      });
      grid.appendChild(el);
      paint(el);
    }
  }
  document.querySelectorAll('#side-palette button').forEach(function (b) {
    b.addEventListener('click', function () {
      selected = b.dataset.feature;
      document.querySelectorAll('#side-palette button').forEach(function (x) {
        x.setAttribute('aria-pressed', x === b ? 'true' : 'false');
      });
    });
  });
}());
