import { expect, test, type APIRequestContext, type APIResponse, type Browser, type Locator, type Page } from '@playwright/test';
import { randomInt } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** Phones of the run's top admins (the server gets them as ADMIN_PHONES); each signs up once per run. */
export const ADMIN_PHONE = '+4915100000999';
export const STAFF_PHONE = '+4915100000998';
export const THIRD_ADMIN_PHONE = '+4915100000997';
export const FOURTH_ADMIN_PHONE = '+4915100000996';
export const FIFTH_ADMIN_PHONE = '+4915100000995';
export const SIXTH_ADMIN_PHONE = '+4915100000994';

/** A valid mobile number nobody else in this run has. */
export function newPhone(): string {
  return `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** The latest code the dev SMS provider "sent" to a phone. */
export async function codeFor(request: APIRequestContext, phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
      code = response.ok() ? ((await response.json()) as { code: string }).code : undefined;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

/**
 * Signs a new person in through the real screens, as someone would: phone, the code from the dev outbox, then
 * their name on the profile step. Ends on the chats.
 */
export async function signUpInBrowser(page: Page, name: string, phone = newPhone()): Promise<{ phone: string }> {
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await codeFor(page.request, phone);
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
  return { phone };
}

/**
 * For tests that are not about signing in: a new person signed up through the API (the code from the dev outbox,
 * then their name), their tokens put where the app keeps them (its `msgr_` cookies), and the app opened signed in,
 * as on a later visit. Ends on the chats. About half a second quicker than the screens (`signUpInBrowser`, which
 * the sign-in tests and several journeys still use).
 */
export async function signUpThroughApi(page: Page, name: string, phone = newPhone()): Promise<{ phone: string }> {
  const answer = async (response: APIResponse) => {
    expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
    return response.json();
  };
  await answer(await page.request.post('/api/auth/send-code', { data: { phone } }));
  const code = await codeFor(page.request, phone);
  const { jwt_info } = (await answer(await page.request.post('/api/auth/sign-in', { data: { phone, code } }))) as {
    jwt_info: { access_token: string; refresh_token: string };
  };
  await answer(await page.request.put('/api/user/edit', { headers: { authorization: `Bearer ${jwt_info.access_token}` }, data: { name } }));
  const url = test.info().project.use.baseURL!;
  await page.context().addCookies(
    Object.entries({ msgr_access_token: jwt_info.access_token, msgr_refresh_token: jwt_info.refresh_token }).map(([cookie, value]) => ({
      name: cookie,
      value,
      url,
      sameSite: 'Strict' as const,
    })),
  );
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
  return { phone };
}

/** A first admin (from ADMIN_PHONES) signs in by SMS, then must set their two passwords before going on. */
export async function signUpAdminInBrowser(page: Page, name: string, phone: string): Promise<{ password: string; extra: string }> {
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await codeFor(page.request, phone));
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  const passwords = { password: `pw-${randomInt(1e9)}-main`, extra: `pw-${randomInt(1e9)}-extra` };
  await expect(page.getByRole('heading', { name: 'Set your passwords' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(passwords.password);
  await page.getByLabel('Extra password').fill(passwords.extra);
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
  return passwords;
}

/** Staff with passwords sign in with them: phone, password, extra password — no SMS. */
export async function signInStaff(page: Page, phone: string, password: string, extra: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Extra password').fill(extra);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
}

/** Adds a contact through the New contact dialog of the Contacts tab. */
export async function addContact(page: Page, phone: string, name: string): Promise<void> {
  await page.getByRole('tab', { name: 'Contacts' }).click();
  await page.getByRole('button', { name: 'New contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'New contact' });
  await dialog.getByLabel('Phone number').fill(phone);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog).toBeHidden();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A button named by what it shows, which starts with `name` (WCAG 2.5.3, label in name: the name, then the line
 * below it), whose action is its tooltip and accessible description (`title`), as a person finds it.
 */
export function namedByContent(scope: Page | Locator, name: string, action: string): Locator {
  return scope.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}(\\s|$)`) }).and(scope.getByTitle(action, { exact: true }));
}

/** A person's row in the Contacts tab or in a group's members: their name, then their phone, @username or role. */
export function personRow(scope: Page | Locator, name: string): Locator {
  return namedByContent(scope, name, `Open chat with ${name}`);
}

/** A row of the Calls tab: who, then which way the call went, how, and when. */
export function callRow(page: Page, name: string): Locator {
  return namedByContent(page, name, `Open the chat with ${name}`);
}

/** The open chat's header, which shows its name and status and opens its details. */
export function chatHeader(page: Page, name: string): Locator {
  return namedByContent(page, name, `Details of ${name}`);
}

/** Clicks a button that opens the file picker (Attach a file, Change picture) and picks `file` in it. */
export async function chooseFile(button: Locator, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = button.page().waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** Opens (creating if needed) the private chat with a contact, from the Contacts tab. */
export async function openChatWith(page: Page, contactName: string): Promise<void> {
  await page.getByRole('tab', { name: 'Contacts' }).click();
  await personRow(page, contactName).click();
  await expect(page.getByRole('heading', { name: contactName })).toBeVisible();
}

/**
 * Anna and Boris, each signed up in a browser of their own; Anna has Boris as a contact and their chat open.
 * (Boris stays on his chat list.)
 */
export async function annaAndBoris(browser: Browser): Promise<{ anna: Page; boris: Page; borisPhone: string }> {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(anna, borisPhone, 'Boris');
  await openChatWith(anna, 'Boris');
  return { anna, boris, borisPhone };
}

/** Anna, Boris and Vika, each signed up in a browser of their own (no contacts yet), with Boris's and Vika's phones. */
export async function annaBorisAndVika(
  browser: Browser,
): Promise<{ anna: Page; boris: Page; vika: Page; phones: { boris: string; vika: string } }> {
  const page = async () => (await browser.newContext()).newPage();
  const [anna, boris, vika] = [await page(), await page(), await page()];
  const phones = { boris: newPhone(), vika: newPhone() };
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', phones.boris);
  await signUpThroughApi(vika, 'Vika', phones.vika);
  return { anna, boris, vika, phones };
}

/** Creates a group from the Chats tab with some of one's contacts, and waits until it is open. */
export async function createGroup(page: Page, name: string, members: string[]): Promise<void> {
  await page.getByRole('tab', { name: 'Chats' }).click();
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Group name').fill(name);
  for (const member of members) await create.getByRole('checkbox', { name: member }).check();
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

/** The send state of a message the server has: one tick ("Sent"), or two once someone read it ("Read"). */
export const STORED = /^(Sent|Read)$/;

/** Types and sends a text in the open chat, and waits until the server has it. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageRow(page, text).getByRole('img', { name: STORED })).toBeVisible();
}

/** The row of the message whose own text is exactly this (not a reply quoting it) in the open chat. */
export function messageRow(page: Page, text: string) {
  const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page
    .getByRole('log', { name: 'Messages' })
    .locator('.msg-bubble-row')
    .filter({ has: page.locator('.msg-bubble-text', { hasText: exact }) });
}

/** Opens a message's actions menu and picks an item. */
export async function messageAction(page: Page, text: string, action: string): Promise<void> {
  const row = messageRow(page, text);
  await row.hover();
  await row.getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** A real PNG of the given size (two colour bands), made here so the test needs no fixture files. */
export function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) row.set(y < height / 2 ? [255, 140, 0] : [40, 90, 200], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** How far an element's content (its text and controls) stays from its parent's left and right edges, in px. */
export async function contentInset(locator: Locator): Promise<{ left: number; right: number }> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const content = range.getBoundingClientRect();
    const parent = element.parentElement!.getBoundingClientRect();
    return { left: content.left - parent.left, right: parent.right - content.right };
  });
}
