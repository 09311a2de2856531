// Accessibility and language fixes for Swagger UI at /docs (src/core/http/docs-theme.ts).
// Loaded after swagger-initializer.js and before window.onload runs it, so it can
// adjust the configuration that the initializer hands to SwaggerUIBundle.
(() => {
  const LANGS = __DOC_LANGUAGES__;

  // ?lang=en|uk|ru picks the description loaded first: Swagger UI selects the
  // `urls` entry named by `urls.primaryName`.
  const wanted = new URLSearchParams(window.location.search).get('lang');
  const initial = LANGS.find((entry) => entry.lang === wanted);
  const original = window.SwaggerUIBundle;
  if (initial && typeof original === 'function') {
    const wrapped = (config) => original({ ...config, 'urls.primaryName': initial.name });
    window.SwaggerUIBundle = Object.assign(wrapped, original);
  }
  if (initial) document.documentElement.lang = initial.lang;

  /** Keeps `lang` of the address and of the page in step with the language selector. */
  function onLanguageChange(event) {
    const select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.closest('.topbar')) return;
    const entry = LANGS.find(
      (item) => select.value.endsWith(`lang=${item.lang}`) || item.name === select.value,
    );
    if (!entry) return;
    const url = new URL(window.location.href);
    url.searchParams.set('lang', entry.lang);
    window.history.replaceState(window.history.state, '', url);
    document.documentElement.lang = entry.lang;
  }
  document.addEventListener('change', onLanguageChange, true);

  let labelled = 0;
  /** Gives a text to a control that has none, without overwriting one it has. */
  function label(element, text) {
    if (element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby')) return;
    if (element.id && document.querySelector(`label[for="${CSS.escape(element.id)}"]`)) return;
    element.setAttribute('aria-label', text);
    labelled += 1;
  }

  /** Fixes what axe-core reports on the markup Swagger UI renders, as it renders it. */
  function repair(root) {
    for (const select of root.querySelectorAll('.topbar select'))
      label(select, 'Language of the description');
    // Swagger UI wraps the Servers select in an empty <label for="servers">.
    for (const select of root.querySelectorAll('.servers select'))
      select.setAttribute('aria-label', 'Server');
    for (const logo of root.querySelectorAll('.topbar a.link svg, .topbar a.link img')) {
      logo.setAttribute('aria-hidden', 'true');
      if (logo.tagName === 'IMG') logo.setAttribute('alt', '');
    }
    for (const select of root.querySelectorAll('select.content-type, .content-type-wrapper select')) {
      label(select, 'Media type');
    }
    for (const select of root.querySelectorAll('select')) {
      const name = select
        .closest('tr')
        ?.querySelector('.parameter__name')
        ?.textContent?.replace('*', '')
        .trim();
      label(select, name || 'Choice');
    }
    for (const field of root.querySelectorAll('input, textarea')) {
      if (field.type === 'hidden') continue;
      const name =
        field.closest('tr')?.querySelector('.parameter__name')?.textContent?.replace('*', '').trim() ||
        field.getAttribute('placeholder') ||
        (field.tagName === 'TEXTAREA' ? 'Request body' : 'Value');
      label(field, name);
    }
    for (const button of root.querySelectorAll('button')) {
      if (button.textContent.trim()) continue;
      if (button.classList.contains('opblock-control-arrow')) label(button, 'Show or hide the operation');
      else if (button.classList.contains('copy-to-clipboard') || button.closest('.copy-to-clipboard')) {
        label(button, 'Copy');
      } else if (button.classList.contains('authorization__btn')) label(button, 'Authorize');
      else if (
        button.classList.contains('model-box-control') ||
        button.classList.contains('expand-operation')
      ) {
        label(button, 'Show or hide');
      } else label(button, 'Action');
    }
    for (const region of root.querySelectorAll('.highlight-code > pre, pre.microlight, .opblock-body pre')) {
      // Scrollable code has to be reachable by keyboard.
      if (!region.hasAttribute('tabindex')) region.setAttribute('tabindex', '0');
    }
  }

  let pending = false;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(() => {
      pending = false;
      repair(document);
    });
  });
  window.addEventListener('DOMContentLoaded', () => {
    repair(document);
    observer.observe(document.body, { childList: true, subtree: true });
  });
  window.__docsThemeLabelled = () => labelled;
})();
