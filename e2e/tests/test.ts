// Every spec imports `test` and `expect` from here: the suite runs under the product's Content-Security-Policy
// and a test fails when anything in any of its browsers was refused by it.
import { test as base, expect, type BrowserContext } from '@playwright/test';

export * from '@playwright/test';

/** What a browser context reports of CSP violations: its pages' console lines and `securitypolicyviolation` events. */
async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  context.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|^CSP violation:/.test(text)) violations.push(`${message.page()?.url() ?? ''}: ${text}`);
  });
}

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ browser, context }, use) => {
      const violations: string[] = [];
      await watchCsp(context, violations);
      // Tests that need several people open their own contexts: watch those too, and close them when the test
      // ends. The browser lives as long as the worker, so a context left open stays connected, polling and
      // rendering through every later test (CI saw 55 open pages by the suite's 23rd file, and a timing-bound
      // scroll test failed beside them).
      const opened: BrowserContext[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        opened.push(created);
        await watchCsp(created, violations);
        return created;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
        await Promise.all(opened.map((created) => created.close()));
      }
      expect(violations, 'nothing may be refused by the Content-Security-Policy').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * The journeys whose server side differs on a cluster (sockets on other nodes, calls rung or answered through
 * another node, limits and staff state in shared stores): `npm test` runs them against 3 nodes
 * (`--grep @cluster`, with E2E_CLUSTER=1) and the rest against one node (`--grep-invert @cluster`), or all of them
 * against one node where the cluster cannot start.
 */
export const CLUSTER = { tag: '@cluster' };
