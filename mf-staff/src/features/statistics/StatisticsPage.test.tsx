import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import '../../i18n';
import { StatisticsPage } from './StatisticsPage';

// uPlot draws on a canvas, which jsdom has not; the chart itself is exercised in the browser tests.
jest.mock('./TrendChart', () => ({ TrendChart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

beforeAll(async () => {
  await initTestI18n();
});

function series(days: number) {
  return Array.from({ length: days }, (_, index) => ({ date: `2026-11-${String(index + 1).padStart(2, '0')}`, new_users: index, calls: 0, secret_chats: 1 }));
}

test('shows the figures, the trend as a chart with a table, the leaderboard, and refetches for another period', async () => {
  const fetchMock = mockFetch({
    'GET /api/stats/total': (url) => {
      const days = Number(new URL(url, 'http://x').searchParams.get('days'));
      return { body: { days, secret_chats: 2, calls: 5, new_users: days === 7 ? 4 : 40, managers: 3, users_per_manager: 1.33, series: series(Math.min(days, 30)) } };
    },
    'GET /api/stats/managers': {
      body: {
        managers: [
          { id: 7, name: 'Mona', username: null, phone: '+4915100000001', invited_users: 5, secret_chats: 1, calls: 2 },
          { id: 8, name: 'Nils', username: null, phone: '+4915100000002', invited_users: 1, secret_chats: 0, calls: 0 },
        ],
      },
    },
  });
  render(<StatisticsPage />);
  const figures = await screen.findByRole('region', { name: 'Figures for the period' });
  expect(within(figures).getByText('New users').nextSibling).toHaveTextContent('40');
  expect(within(figures).getByText('Users per manager').nextSibling).toHaveTextContent('1.33');
  expect(screen.getByRole('img', { name: /Chart of new users, calls and secret chats per day over the last 30 days/ })).toBeInTheDocument();
  const board = screen.getByRole('region', { name: 'Managers leaderboard' });
  expect(within(board).getAllByRole('row').map((row) => row.textContent)).toEqual(['#ManagerInvited usersSecret chatsCalls', '1Mona512', '2Nils100']);

  await userEvent.selectOptions(screen.getByLabelText('Period'), '7');
  const after = await screen.findByRole('region', { name: 'Figures for the period' });
  expect(within(after).getByText('New users').nextSibling).toHaveTextContent('4');
  expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/stats/managers?days=7'))).toBe(true);
});
