// Inline script of report.html: status filters, id search, copy buttons, and the exchanges of closed
// rows rendered when a row opens. Plain ES2017 that reads only what the server rendered: the lazy
// exchanges are the server's own escaped markup kept as JSON strings, so nothing a target sent can run.

export const HTML_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('li.check'));
  // Suite groups and the tiers holding them (html-tiers.ts): hidden when no row in them is shown.
  var groups = Array.prototype.slice.call(document.querySelectorAll('section.suite, section.tier'));
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
    groups.forEach(function (group) {
      group.hidden = group.querySelector('li.check:not([hidden])') === null;
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

  // The exchanges of rows that open closed: refs "index:entry" into the store, rendered on first open
  // with the markup exchangeBlock() writes (html-check.ts). toggle does not bubble: capture phase.
  var store = null;
  document.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open) return;
    var slot = details.querySelector(':scope > .detail > .lazy[data-lazy]');
    if (!slot) return;
    if (store === null) {
      var source = document.getElementById('exchange-store');
      store = source ? JSON.parse(source.textContent || '[]') : [];
    }
    var html = '';
    slot.getAttribute('data-lazy').split(' ').forEach(function (ref) {
      var parts = ref.split(':');
      var entry = store[Number(parts[1])];
      if (!entry) return;
      html += '<details class="exchange"><summary>#' + Number(parts[0]) + ' ' + entry[0] + '</summary><div class="exchange-body">' + entry[1] + '</div></details>';
    });
    slot.innerHTML = html;
    slot.removeAttribute('data-lazy');
  }, true);

  document.documentElement.classList.add('js');
  apply();
})();
`;
