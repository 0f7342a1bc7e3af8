// The reference documentation inside the built site: every docs/*.md rendered to
// DIR/docs/NAME.html with `marked`, so that the page's "docs/advisor.md" references are links
// that open offline too (the service worker precaches every file of the build).
//
//   node scripts/docs-site.mjs DIR
//
// Links between the documents (`model.md#fields`) become links between the pages
// (`model.html#fields`); headings get GitHub's anchors, so the anchors the documents already
// use keep working. A link that leaves docs/ (`../presets`, `../src/…`) names a file of the
// repository, not of the site: it is shown as its text. docs/model.schema.json is copied as
// is, since the model documentation links it and editors read it.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, and a
 * `-1`, `-2` suffix on repeats within one document. */
export function slugger() {
  const seen = new Map();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/<[^>]*>/g, '')
      .replace(/&[#a-z0-9]+;/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** Returns where a document's link `href` points in the site, or null for a link that
 * leaves the documentation (shown as its text). */
export function siteHref(href) {
  if (/^[a-z]+:/i.test(href) || href.startsWith('#')) return href;
  const [path, hash] = href.split('#');
  if (path.includes('/')) return null;
  const page = path.endsWith('.md') ? `${path.slice(0, -3)}.html` : path;
  return hash === undefined ? page : `${page}#${hash}`;
}

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** Returns the HTML page of one document: its title, the rendered Markdown and a way back to
 * the playground and to the list of documents. */
export function renderDocument(markdown, names) {
  const slug = slugger();
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const id = slug(inner);
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true">#</a>${inner}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const text = this.parser.parseInline(tokens);
        const to = siteHref(href);
        if (to === null) return text;
        const t = title ? ` title="${escape(title)}"` : '';
        return `<a href="${escape(to)}"${t}>${text}</a>`;
      },
    },
  });
  const body = marked.parse(markdown);
  const title = (markdown.match(/^#\s+(.+)$/m)?.[1] ?? 'Squillion').replace(/`/g, '');
  const nav = names.map((n) => `<a href="${n}.html">${n}</a>`).join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Squillion</title>
<link rel="stylesheet" href="docs.css">
</head>
<body>
<header><a href="../index.html">← Squillion</a><nav aria-label="Documents">${nav}</nav></header>
<main>
${body}</main>
</body>
</html>
`;
}

/** Returns the list of documents: each one's title and its first paragraph. */
export function renderIndex(documents, names) {
  const items = documents.map(([name, md]) => {
    const title = (md.match(/^#\s+(.+)$/m)?.[1] ?? name).replace(/`/g, '');
    const lead = md
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p && !p.startsWith('#') && !p.startsWith('|') && !p.startsWith('```') && !p.startsWith('<'));
    const text = lead ? new Marked().parseInline(lead.replace(/\]\([^)]*\)/g, ']').replace(/\[([^\]]*)\]/g, '$1')) : '';
    return `<li><a href="${name}.html">${escape(title)}</a> <small>(${name}.md)</small><br>${text}</li>`;
  });
  const page = renderDocument('# Squillion reference\n\nEvery document of `docs/`, as the repository holds it, readable offline.\n', names);
  return page.replace('</main>', `<ul class="docs-index">\n${items.join('\n')}\n</ul>\n</main>`);
}

const STYLE = `body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI","PingFang SC","Noto Sans CJK SC",sans-serif;color:#1d2430;background:#fff}
header{position:sticky;top:0;background:#f4f6f9;border-bottom:1px solid #dde2ea;padding:.5rem 1rem;display:flex;gap:1rem;flex-wrap:wrap;align-items:baseline;font-size:.9rem}
header nav{display:flex;gap:.25rem .5rem;flex-wrap:wrap}
main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem 4rem}
a{color:#0b5cad}
h1,h2,h3,h4{line-height:1.25;margin:1.6em 0 .5em}
h1 .anchor,h2 .anchor,h3 .anchor,h4 .anchor{margin-left:-1.1em;padding-right:.3em;opacity:0;text-decoration:none}
h1:hover .anchor,h2:hover .anchor,h3:hover .anchor,h4:hover .anchor{opacity:.5}
code{font:.88em/1.4 ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;background:#f1f3f6;padding:.1em .3em;border-radius:3px}
pre{background:#f1f3f6;padding:.75rem 1rem;overflow-x:auto;border-radius:4px}
pre code{background:none;padding:0}
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1rem 0}
th,td{border:1px solid #dde2ea;padding:.3rem .55rem;vertical-align:top;text-align:left}
th{background:#f4f6f9}
ul.docs-index{padding-left:1.1rem}ul.docs-index li{margin:.7rem 0}
blockquote{margin:1rem 0;padding:0 1rem;border-left:3px solid #dde2ea;color:#4a5568}
`;

/** Renders every docs/*.md into `dir`/docs/ and copies the model's JSON schema; returns the
 * names rendered. */
export function renderDocs(dir) {
  const out = join(dir, 'docs');
  mkdirSync(out, { recursive: true });
  const names = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .sort();
  for (const name of names) {
    const html = renderDocument(readFileSync(join(DOCS, `${name}.md`), 'utf8'), names);
    writeFileSync(join(out, `${name}.html`), html);
  }
  writeFileSync(join(out, 'index.html'), renderIndex(names.map((n) => [n, readFileSync(join(DOCS, `${n}.md`), 'utf8')]), names));
  writeFileSync(join(out, 'docs.css'), STYLE);
  copyFileSync(join(DOCS, 'model.schema.json'), join(out, 'model.schema.json'));
  return names;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('usage: node scripts/docs-site.mjs DIR (or run as a Trunk hook)');
    process.exit(2);
  }
  console.log(`docs: ${renderDocs(dir).length} documents rendered into ${join(dir, 'docs')}`);
}
