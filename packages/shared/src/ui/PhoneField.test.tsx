import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { PhoneField } from './PhoneField';
import type { CountryCode } from '../rules/phone';

function Field() {
  const [country, setCountry] = useState<CountryCode>('US');
  const [phone, setPhone] = useState('');
  return (
    <PhoneField
      country={country}
      value={phone}
      onChange={(value, next) => {
        setPhone(value);
        setCountry(next);
      }}
      countryLabel="Country"
      phoneLabel="Phone"
    />
  );
}

test('what is typed before the phone rules arrive is formatted when they do, and names its country', async () => {
  render(<Field />);
  const phone = screen.getByRole('textbox', { name: 'Phone' });
  // The rules are not part of a first load: the first character typed asks for them.
  fireEvent.change(phone, { target: { value: '+4915112345678' } });
  expect(phone).toHaveValue('+4915112345678');
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('US');
  expect(await screen.findByDisplayValue('+49 1511 2345678')).toBe(phone);
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('DE');
  // From then on, as typed.
  fireEvent.change(phone, { target: { value: '+33612345678' } });
  expect(phone).toHaveValue('+33 6 12 34 56 78');
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('FR');
});
