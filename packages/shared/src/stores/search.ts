import { create } from 'zustand';
import { config } from '../config';
import { normalizeSearch } from '../rules/search';
import { clampCharacters } from '../rules/text';

export interface SearchState {
  /** What the person typed, as shown in the box. */
  text: string;
  /** The normalised query lists filter by (spec §5); empty clears the search. */
  query: string;
  setText(text: string): void;
}

/** The side bar's search box, read by whichever tab's list is showing. */
export const useSearchStore = create<SearchState>((set) => ({
  text: '',
  query: '',
  setText: (text) => {
    const limited = clampCharacters(text, config.searchMax);
    set({ text: limited, query: normalizeSearch(limited) });
  },
}));
