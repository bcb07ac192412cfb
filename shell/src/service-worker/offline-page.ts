import { stringsFor } from './strings';

/** The app's icon, inline: offline, nothing else can be fetched. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="96" height="96" aria-hidden="true">
<circle cx="256" cy="256" r="256" fill="#2563eb"/>
<path d="M256 120c-85 0-154 57-154 128 0 38 20 72 52 95l-14 55c-2 7 6 12 12 8l64-37c13 3 26 4 40 4 85 0 154-57 154-128S341 120 256 120z" fill="#fff"/>
<circle cx="196" cy="248" r="20" fill="#2563eb"/><circle cx="256" cy="248" r="20" fill="#2563eb"/><circle cx="316" cy="248" r="20" fill="#2563eb"/>
</svg>`;

const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The page shown when a page of the app is opened without a network: the app's colours, no script, and a link
 * that simply loads the address again.
 */
export function offlinePage(language: string | null): Response {
  const strings = stringsFor(language);
  const html = `<!doctype html>
<html lang="${escape(language ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(strings.offlineTitle)} · ${escape(strings.appName)}</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font-family: system-ui, sans-serif;
         background: Canvas; color: CanvasText; }
  main { max-width: 28rem; padding: 2rem; text-align: center; }
  a { display: inline-block; margin-top: 1rem; padding: 0.6rem 1.2rem; border-radius: 0.5rem; background: #2563eb;
      color: #fff; text-decoration: none; font-weight: 600; }
</style>
</head>
<body>
<main>
${ICON}
<h1>${escape(strings.offlineTitle)}</h1>
<p>${escape(strings.offlineBody)}</p>
<a href="">${escape(strings.offlineRetry)}</a>
</main>
</body>
</html>`;
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}
