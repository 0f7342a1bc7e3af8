// Starts the WebAssembly app. An external module (not an inline script) so that the
// Content-Security-Policy can forbid inline scripts altogether.
import init from './squillion.js';

init({ module_or_path: new URL('./squillion_bg.wasm', import.meta.url) });
