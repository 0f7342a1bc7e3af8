// Starts the WebAssembly app. An external module (not an inline script) so that the
// Content-Security-Policy can forbid inline scripts altogether.
//
// It also runs the offline service worker (sw.js, see public/sw.js): registered after the app
// has started, so it never delays the first visit; when a new build was installed during an
// earlier visit and still waits, it takes over before the app starts (one reload), so the page
// and its evaluation worker never run two different builds; and when the build changed since
// the last load, the page says so.
import init from './squillion.js';

/** The build that answered the last load (localStorage), to say when it changed. */
const BUILD = 'squillion-build';
const sw = 'serviceWorker' in navigator && window.isSecureContext ? navigator.serviceWorker : null;

/** Shows a short note at the bottom of the page (the app's own DOM is left alone). */
function notice(text) {
  const note = document.createElement('div');
  note.className = 'sw-notice';
  note.setAttribute('role', 'status');
  note.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'OK';
  close.addEventListener('click', () => note.remove());
  note.append(' ', close);
  document.body.append(note);
  setTimeout(() => note.remove(), 12000);
}

/** Lets a waiting new build take over; resolves true when the page reloads for it. */
async function takeOver() {
  const registration = await sw.getRegistration();
  const waiting = registration?.waiting;
  if (!waiting || !sw.controller) return false;
  // Its own state, not `controllerchange`, which the browser does not always fire here.
  const changed = new Promise((ok) => {
    waiting.addEventListener('statechange', () => waiting.state === 'activated' && ok(true));
  });
  waiting.postMessage('skip-waiting');
  // Never hang the page on it: past 5 s, start the running build.
  if (!(await Promise.race([changed, new Promise((ok) => setTimeout(() => ok(false), 5000))]))) return false;
  location.reload();
  return true;
}

/** Registers the service worker and says when a new build is ready for the next load. */
async function register() {
  try {
    const registration = await sw.register('./sw.js');
    let told = false;
    // A worker `installed` while another controls the page: a new build beside the running one.
    const watch = (worker) => {
      const tell = () => {
        if (worker.state !== 'installed' || told || !sw.controller) return;
        told = true;
        notice('A new version of Squillion is ready: it takes over when you reload.');
      };
      tell();
      worker.addEventListener('statechange', tell);
    };
    // The browser may have found it already, while it loaded this page.
    const found = registration.waiting ?? registration.installing;
    if (found) watch(found);
    registration.addEventListener('updatefound', () => registration.installing && watch(registration.installing));
    // Look for a new build now, not whenever the browser would.
    registration.update().catch(() => {});
  } catch {
    // Offline, or a host without service workers: the page works as before.
  }
}

/** Asks the registration's active service worker which build it serves (null: none answers
 * within 2 s). That worker answers the page's requests from now on, whether it controlled this
 * load or took over during it; on a first visit it is the one just installed, from the build
 * this page came from. */
function version() {
  return new Promise((ok) => {
    setTimeout(() => ok(null), 2000);
    sw.ready.then(({ active }) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => ok(String(event.data));
      active.postMessage('version', [channel.port2]);
    });
  });
}

/** Compiles the app's module while it downloads (or, from a host that does not send
 * `application/wasm`, once it has). */
async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

/** The translation files asked for (`zh-CN.json`, scripts/translations.mjs), by language: the
 * page's module carries English only and asks for a language's file when it first needs it
 * (src/ui/i18n.rs). */
const translations = {};
window.squillionTranslation = (code) =>
  (translations[code] ??= fetch(new URL(`./${code}.json`, import.meta.url)).then((r) =>
    r.ok ? r.text() : Promise.reject(new Error(`${code}.json: HTTP ${r.status}`)),
  ).catch((e) => {
    // Asked again later (back online), it is fetched again.
    delete translations[code];
    throw e;
  }));
// Started now, beside the module, when the page will most likely open in Chinese: the choice
// remembered (src/ui/i18n.rs's LANG_KEY), else the browser's language as Lang::from_tag reads it
// (a wrong guess costs one early fetch, or the module fetches it a moment later).
try {
  const chosen = localStorage.getItem('squillion.lang');
  const tag = (chosen ?? navigator.language ?? '').toLowerCase().replace('_', '-');
  if (chosen === 'zh-CN' || (!chosen && /^zh(-(cn|sg|hans|my)\b.*)?$/.test(tag))) {
    window.squillionTranslation('zh-CN').catch(() => {});
  }
} catch {
  // No storage (a sandboxed frame): the module asks when it starts.
}

let tools = null;
/** Loads the tools module (inference) into the page, once; its start puts its functions on the
 * window (`?bench`: the inference benchmark, bench/infer.mjs, times it there). */
window.squillionLoadTools = () =>
  (tools ??= import('./squillion-tools.js').then((m) =>
    m.default({ module_or_path: new URL('./squillion-tools_bg.wasm', import.meta.url) }),
  ));

async function start() {
  if (sw && (await takeOver().catch(() => false))) return;
  const module = await compile(new URL('./squillion_bg.wasm', import.meta.url));
  // The page's evaluation workers instantiate this compiled module (the page posts it to them)
  // instead of fetching and compiling the wasm a second time.
  window.squillionModule = module;
  await init({ module_or_path: module });
  if (!sw) return;
  register();
  const build = await version();
  if (build) {
    const last = localStorage.getItem(BUILD);
    if (last && last !== build) notice('Squillion was updated to a new version.');
    localStorage.setItem(BUILD, build);
  }
}

start();
