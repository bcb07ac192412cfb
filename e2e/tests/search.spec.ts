import { expect, test } from './test';
import { annaAndBoris, send } from './fixtures';

test('searching one chat: the matches are counted, marked and stepped through, and a word nowhere says so', async ({ browser }) => {
  const { anna } = await annaAndBoris(browser);
  await send(anna, 'The apple pie');
  await send(anna, 'Filler one');
  await send(anna, 'An apple a day');
  await send(anna, 'The last one');

  await anna.getByRole('button', { name: 'Search in this chat' }).click();
  const search = anna.getByRole('searchbox', { name: 'Search messages' });
  await search.fill('apple');
  // The newest match first, marked in its message.
  await expect(anna.getByText('1 of 2')).toBeVisible();
  const log = anna.getByRole('log', { name: 'Messages' });
  await expect(log.locator('mark')).toHaveText(['apple', 'apple']);
  await anna.getByRole('button', { name: 'Previous match' }).click();
  await expect(anna.getByText('2 of 2')).toBeVisible();
  await anna.getByRole('button', { name: 'Next match' }).click();
  await expect(anna.getByText('1 of 2')).toBeVisible();

  await search.fill('zebra');
  await expect(anna.getByText('No matches')).toBeVisible();
  await expect(log.locator('mark')).toHaveCount(0);
});
