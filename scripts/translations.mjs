// The page's translation files: one `<code>.json` per language but English, from
// `locales/<code>/` (its page words, its messages and its presets' texts), written into the
// build by the post-build hook (scripts/post-build.mjs). The page's modules carry English only
// (the `supplied-translations` feature) and fetch a language's file when it is first chosen
// (src/lang/translations.rs reads it; docs/size.md says why).
//
//   node scripts/translations.mjs DIR
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCALES = fileURLToPath(new URL('../locales/', import.meta.url));

/** Writes every translation file into `dir`; returns their names. */
export function writeTranslations(dir) {
  const codes = readdirSync(LOCALES, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'en')
    .map((e) => e.name)
    .sort();
  return codes.map((code) => {
    const root = join(LOCALES, code);
    const read = (f) => readFileSync(join(root, f), 'utf8');
    const presets = Object.fromEntries(
      readdirSync(join(root, 'presets'))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => [f.slice(0, -'.json'.length), read(join('presets', f))]),
    );
    const file = `${code}.json`;
    writeFileSync(join(dir, file), JSON.stringify({ lang: code, page: read('page.ftl'), messages: read('messages.ftl'), presets }));
    return file;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/translations.mjs DIR');
    process.exit(2);
  }
  console.log(`translations: ${writeTranslations(dir).join(', ')}`);
}
