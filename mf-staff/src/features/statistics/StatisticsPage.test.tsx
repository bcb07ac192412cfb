import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import '../../i18n';
import { StatisticsPage } from './StatisticsPage';

beforeAll(async () => {
  await initTestI18n();
});

test('shows the period’s figures and refetches when the period changes', async () => {
  const fetchMock = mockFetch({
    'GET /api/stats/total': (url) => {
      const days = Number(new URL(url, 'http://x').searchParams.get('days'));
      return { body: { days, secret_chats: 2, calls: 5, new_users: days === 7 ? 4 : 40, managers: 3, users_per_manager: 1.33 } };
    },
  });
  render(<StatisticsPage />);
  const figures = await screen.findByRole('region', { name: 'Figures for the period' });
  expect(within(figures).getByText('New users').nextSibling).toHaveTextContent('40');
  expect(within(figures).getByText('Users per manager').nextSibling).toHaveTextContent('1.33');
  await userEvent.selectOptions(screen.getByLabelText('Period'), '7');
  expect(await screen.findByText('4')).toBeInTheDocument();
  expect(String(fetchMock.mock.calls.at(-1)![0])).toContain('days=7');
});
