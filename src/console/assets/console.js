// wms-sync console: the few behaviours htmx does not give. Served from the package (no CDN), and
// written without inline handlers so the pages can keep a strict Content-Security-Policy.
(() => {
  // A form that changes many records asks first (bulk retry, cancel).
  document.addEventListener('submit', (event) => {
    var form = event.target;
    var message = form.getAttribute?.('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
    var editor = form.querySelector?.('textarea[data-json-editor]');
    if (editor && !checkJson(editor)) event.preventDefault();
  });

  // Filters apply as soon as a select changes.
  document.addEventListener('change', (event) => {
    var el = event.target;
    if (el.matches?.('select[data-autosubmit]') && el.form) el.form.submit();
  });

  // JSON editors tell whether their text parses before anything is sent.
  function checkJson(textarea) {
    var out = document.getElementById(textarea.getAttribute('data-json-editor'));
    try {
      JSON.parse(textarea.value);
      if (out) {
        out.textContent = 'Valid JSON';
        out.className = 'validation ok';
      }
      return true;
    } catch (err) {
      if (out) {
        out.textContent = `Not valid JSON: ${err.message}`;
        out.className = 'validation bad';
      }
      return false;
    }
  }
  document.addEventListener('input', (event) => {
    if (event.target.matches?.('textarea[data-json-editor]')) checkJson(event.target);
  });

  // Rows that appear in a refreshed list are highlighted for a moment.
  var newest = new WeakMap();
  function maxId(root) {
    var max = 0;
    root.querySelectorAll('tr[data-id]').forEach((tr) => {
      max = Math.max(max, Number(tr.getAttribute('data-id')) || 0);
    });
    return max;
  }
  document.addEventListener('htmx:beforeSwap', (event) => {
    var target = event.detail.target;
    if (target?.hasAttribute('data-highlight-new')) newest.set(target, maxId(target));
  });
  document.addEventListener('htmx:afterSwap', (event) => {
    var target = event.detail.target;
    if (!newest.has(target)) return;
    var before = newest.get(target);
    if (!before) return;
    target.querySelectorAll('tr[data-id]').forEach((tr) => {
      if (Number(tr.getAttribute('data-id')) > before) tr.classList.add('fresh');
    });
  });
})();
