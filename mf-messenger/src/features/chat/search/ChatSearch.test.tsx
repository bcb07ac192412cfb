import { render, screen } from '@testing-library/react';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import '../../../i18n';
import { ChatSearch } from './ChatSearch';

beforeAll(async () => {
  await initTestI18n();
});

test('a search that fails says so, never "no matches"; one that finds nothing says that', async () => {
  mockFetch({ 'GET /api/chat/search': { status: 503, body: { error: 'search_unavailable', message: 'Search is down' } } });
  const { rerender } = render(<ChatSearch chatId={7} query="hello" onQuery={() => undefined} onClose={() => undefined} />);
  expect(await screen.findByText('The search did not work. Please try again.')).toBeInTheDocument();
  expect(screen.queryByText('No matches')).not.toBeInTheDocument();
  mockFetch({ 'GET /api/chat/search': { body: { message_ids: [] } } });
  rerender(<ChatSearch chatId={7} query="hello there" onQuery={() => undefined} onClose={() => undefined} />);
  expect(await screen.findByText('No matches')).toBeInTheDocument();
});
