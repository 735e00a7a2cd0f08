// Inline script of report.html: status filters, id search and copy buttons. Plain ES2017 that reads
// only the DOM the server rendered; it never parses run data, so nothing a target sent can run.

export const HTML_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('li.check'));
  var suites = Array.prototype.slice.call(document.querySelectorAll('section.suite'));
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-filter]'));
  var search = document.getElementById('search');
  var shown = document.getElementById('shown');
  var empty = document.getElementById('empty');
  var filter = 'all';

  function apply() {
    var query = search.value.trim().toLowerCase();
    var visible = 0;
    rows.forEach(function (row) {
      var ok = (filter === 'all' || row.getAttribute('data-status') === filter) &&
        (query === '' || row.getAttribute('data-id').toLowerCase().indexOf(query) !== -1);
      row.hidden = !ok;
      if (ok) visible += 1;
    });
    suites.forEach(function (suite) {
      suite.hidden = suite.querySelector('li.check:not([hidden])') === null;
    });
    buttons.forEach(function (button) {
      button.setAttribute('aria-pressed', String(button.getAttribute('data-filter') === filter));
    });
    shown.textContent = visible + ' of ' + rows.length + ' checks shown';
    empty.hidden = visible !== 0;
  }

  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      filter = button.getAttribute('data-filter') || 'all';
      apply();
    });
  });
  search.addEventListener('input', apply);

  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    if (selection) { selection.removeAllRanges(); selection.addRange(range); }
  }

  function flash(button, text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = 'Copy'; }, 2000);
  }

  // The clipboard API exists only in secure contexts and may be denied: fall back to selecting the text.
  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var button = target.closest('button.copy');
    if (!button) return;
    var pre = button.parentElement && button.parentElement.querySelector('pre');
    if (!pre) return;
    var text = pre.textContent || '';
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      navigator.clipboard.writeText(text).then(function () { flash(button, 'Copied'); }, function () {
        selectText(pre);
        flash(button, 'Press Ctrl+C');
      });
    } else {
      selectText(pre);
      flash(button, 'Press Ctrl+C');
    }
  });

  document.documentElement.classList.add('js');
  apply();
})();
`;
