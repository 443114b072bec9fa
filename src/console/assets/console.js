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

  // Enter in a filter's select applies the filters, as it does in its text inputs; a select's
  // arrows only move between its options.
  document.addEventListener('keydown', (event) => {
    var el = event.target;
    if (event.key !== 'Enter' || !el.matches?.('form.filters select, form[data-enter-submits] select')) return;
    event.preventDefault();
    el.form.requestSubmit();
  });

  // Times are written in UTC by the server; the browser adds its local time beside them.
  function localTimes(root) {
    root.querySelectorAll?.('time[datetime]:not([data-local])').forEach((el) => {
      el.setAttribute('data-local', '');
      var at = new Date(el.getAttribute('datetime'));
      if (Number.isNaN(at.getTime()) || at.getTimezoneOffset() === 0) return;
      var pad = (n) => String(n).padStart(2, '0');
      var span = document.createElement('span');
      span.className = 'local-time';
      var offset = -at.getTimezoneOffset();
      var zone = `UTC${offset >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      span.textContent = `(${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())} local, ${zone})`;
      el.after(span);
    });
  }
  localTimes(document);
  document.addEventListener('htmx:afterSettle', (event) => localTimes(event.detail.elt));

  // A refreshed part of a page keeps the operator's place: the focused link or button is focused
  // again in the new content, and the page does not move.
  var kept = null;
  function focusKey(el) {
    if (el.id) return `#${CSS.escape(el.id)}`;
    var href = el.getAttribute('href');
    if (href) return `${el.tagName.toLowerCase()}[href="${CSS.escape(href)}"]`;
    return null;
  }

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
    var active = document.activeElement;
    kept = {
      x: window.scrollX,
      y: window.scrollY,
      focus: active && active !== document.body && target?.contains(active) ? focusKey(active) : null,
    };
  });
  document.addEventListener('htmx:afterSwap', (event) => {
    var target = event.detail.target;
    var again = kept?.focus ? document.querySelector(kept.focus) : null;
    if (again) again.focus({ preventScroll: true });
    if (kept) {
      window.scrollTo(kept.x, kept.y);
      kept = null;
    }
    if (!newest.has(target)) return;
    var before = newest.get(target);
    if (!before) return;
    target.querySelectorAll('tr[data-id]').forEach((tr) => {
      if (Number(tr.getAttribute('data-id')) > before) tr.classList.add('fresh');
    });
  });
})();
