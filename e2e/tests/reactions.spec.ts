import { expect, test, type Page } from './test';
import { annaAndBoris, messageRow, send } from './fixtures';

/** Opens a message's menu and reacts with the named emoji. */
async function react(page: Page, text: string, name: string): Promise<void> {
  const row = messageRow(page, text);
  await row.hover();
  await row.getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menuitemcheckbox', { name: `React with ${name}` }).click();
}

// Issue 14: one reaction per person per message, seen live by the other person with who gave it.
test('reactions: given from the menu, seen live with who gave them, replaced, and taken back', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'Pizza tonight?');
  await boris.getByRole('link', { name: /Anna/ }).click();

  await react(boris, 'Pizza tonight?', 'Thumbs up');
  const borisReactions = messageRow(boris, 'Pizza tonight?').getByRole('group', { name: 'Reactions' });
  await expect(borisReactions.getByRole('button', { name: 'Thumbs up 1: You', pressed: true })).toHaveText('👍 1');
  const annaReactions = messageRow(anna, 'Pizza tonight?').getByRole('group', { name: 'Reactions' });
  await expect(annaReactions.getByRole('button', { name: 'Thumbs up 1: Boris', pressed: false })).toHaveText('👍 1');

  // Anna gives the same: one chip, two people. Boris changes his to a heart: it replaces his thumbs up.
  await annaReactions.getByRole('button', { name: 'Thumbs up 1: Boris' }).click();
  await expect(borisReactions.getByRole('button', { name: 'Thumbs up 2: You, Anna' })).toHaveText('👍 2');
  await react(boris, 'Pizza tonight?', 'Heart');
  await expect(annaReactions.getByRole('button', { name: 'Heart 1: Boris' })).toHaveText('❤️ 1');
  await expect(annaReactions.getByRole('button', { name: 'Thumbs up 1: You', pressed: true })).toHaveText('👍 1');

  // Clicking one's own takes it back.
  await annaReactions.getByRole('button', { name: 'Thumbs up 1: You' }).click();
  await expect(borisReactions.getByRole('button', { name: /Thumbs up/ })).toHaveCount(0);
  await expect(borisReactions.getByRole('button', { name: 'Heart 1: You' })).toBeVisible();
  // After a reload they are still there (they come with the history).
  await anna.reload();
  await expect(messageRow(anna, 'Pizza tonight?').getByRole('button', { name: 'Heart 1: Boris' })).toBeVisible();
});
