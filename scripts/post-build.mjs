// Trunk's post-build hook (Trunk.toml), in order: the reference documentation rendered into
// the build (scripts/docs-site.mjs), the translation files the page fetches when a language is
// chosen (scripts/translations.mjs), then the offline service worker over every file of the
// build, the documents included (scripts/service-worker.mjs). One hook, so that the order is
// this file's and not the hook runner's.
//
//   node scripts/post-build.mjs [DIR]     (DIR defaults to $TRUNK_STAGING_DIR)
import { renderDocs } from './docs-site.mjs';
import { writeTranslations } from './translations.mjs';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/post-build.mjs DIR (or run as a Trunk hook)');
  process.exit(2);
}
console.log(`docs: ${renderDocs(dir).length} documents`);
console.log(`translations: ${writeTranslations(dir).join(', ')}`);
await import('./service-worker.mjs');
