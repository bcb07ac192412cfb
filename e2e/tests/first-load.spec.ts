// The size gate (issue 13): what a cold visit downloads of JavaScript, compressed as sent, must not grow more than
// 10 % past the budget committed in first-load-budget.json. A change that needs more raises the budget in the same
// commit, where a reviewer sees it; one that saves lowers it. `npm run bench` prints the same figures file by file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './test';
import { kilobytes, scriptsOfColdLoad, totals } from '../bench/first-load.mjs';
import { signUpInBrowser } from './fixtures';

interface Budget {
  kilobytes: number;
}
const budgets = JSON.parse(readFileSync(join(__dirname, '..', 'first-load-budget.json'), 'utf8')) as Record<string, Budget>;
const TOLERANCE = 1.1;

function withinBudget(name: string, bytes: number, files: string[]): void {
  const budget = budgets[name];
  expect(budget, `first-load-budget.json has no entry for ${name}`).toBeDefined();
  const allowed = budget!.kilobytes * 1024 * TOLERANCE;
  console.log(`${name}: ${kilobytes(bytes)} of JavaScript (budget ${budget!.kilobytes} KB, allowed up to ${kilobytes(allowed)})`);
  expect(bytes, `${name} loads ${kilobytes(bytes)} of JavaScript, over its budget of ${budget!.kilobytes} KB + 10 %:\n${files.join('\n')}`).toBeLessThanOrEqual(allowed);
}

test('a cold visit stays within the JavaScript budget of each first page', async ({ browser, page, baseURL }) => {
  const describe = (scripts: Awaited<ReturnType<typeof scriptsOfColdLoad>>) => scripts.map((script) => `  ${kilobytes(script.bytes)} ${script.url}`);

  const signIn = await scriptsOfColdLoad(browser, baseURL!, '/login', { ready: (fresh) => fresh.getByLabel('Phone number').waitFor() });
  // Every script is sent compressed, so the figure is what travels.
  expect(signIn.filter((script) => script.bytes > 1024 && script.encoding === 'identity')).toEqual([]);
  withinBudget('login', totals(signIn).all, describe(signIn));

  await signUpInBrowser(page, 'Budget Person');
  const storageState = await page.context().storageState();
  const chats = await scriptsOfColdLoad(browser, baseURL!, '/', {
    storageState,
    // The messenger remote's chats tab is on screen: its scripts are part of the page.
    ready: (fresh) => expect(fresh.getByRole('button', { name: 'New contact' })).toBeVisible(),
  });
  withinBudget('chat-list', totals(chats).all, describe(chats));
});
