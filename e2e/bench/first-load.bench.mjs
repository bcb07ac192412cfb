// First-load benchmark (figures, not pass/fail): the JavaScript a cold visit downloads, compressed as sent, for
// the sign-in page, the signed-in chat list (the messenger remote's tab shown), an open chat and the profile, file
// by file. Production build, fresh database, like `npm start`.
// The size gate of the e2e run (tests/first-load.spec.ts) measures the same way against first-load-budget.json.
import { launchChromium, startBenchServer } from './server.mjs';
import { kilobytes, scriptsOfColdLoad, totals } from './first-load.mjs';

const { base, api, signUp, stop } = await startBenchServer();
try {
  const anna = await signUp('Anna');
  const boris = await signUp('Boris');
  await api('POST', '/user/contacts/add', { token: anna.access_token, body: { user_phone: boris.phone, name: 'Boris' } });
  const { chat } = await api('POST', '/chat/create', { token: anna.access_token, body: { chat_type: 'private', participants: [boris.id] } });
  const cookie = (name, value) => ({ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' });
  const signedIn = { cookies: [cookie('msgr_access_token', anna.access_token), cookie('msgr_refresh_token', anna.refresh_token)], origins: [] };
  const browser = await launchChromium();
  const pages = [
    ['sign-in page (/login)', '/login', { ready: (page) => page.getByLabel('Phone number').waitFor() }],
    ['chat list, signed in (/)', '/', { storageState: signedIn, ready: (page) => page.getByRole('button', { name: 'New contact' }).waitFor() }],
    // Not a target of issue 13, but what a person pays for opening a link to a chat (the cropper is not in it).
    [`a chat opened, signed in (/${chat.id})`, `/${chat.id}`, { storageState: signedIn, ready: (page) => page.getByRole('textbox', { name: 'Message' }).waitFor() }],
    ['profile, signed in (/profile)', '/profile', { storageState: signedIn, ready: (page) => page.getByRole('button', { name: 'Change picture' }).waitFor() }],
  ];
  for (const [name, path, options] of pages) {
    const scripts = await scriptsOfColdLoad(browser, base, path, options);
    const sum = totals(scripts);
    console.log(`${name}: ${kilobytes(sum.all)} of JavaScript in ${sum.files} files`);
    for (const script of scripts) console.log(`  ${kilobytes(script.bytes).padStart(10)}  ${script.encoding.padEnd(8)} ${script.url}`);
  }
  await browser.close();
} finally {
  stop();
}
