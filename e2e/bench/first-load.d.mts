import type { Browser, BrowserContext, Page } from '@playwright/test';

export interface LoadedScript {
  url: string;
  encoding: string;
  /** The body's bytes as sent (compressed when the server compressed it). */
  bytes: number;
}
export function scriptsOfColdLoad(
  browser: Browser,
  base: string,
  path: string,
  options?: { ready?: (page: Page) => Promise<unknown>; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> },
): Promise<LoadedScript[]>;
export function kilobytes(bytes: number): string;
export function totals(scripts: LoadedScript[]): { all: number; files: number };
