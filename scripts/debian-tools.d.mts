export type DebianTool = 'chromium' | 'coturn' | 'haproxy';
/** The tool's binary, or undefined when it is not installed. */
export function findTool(name: DebianTool): string | undefined;
/** The tool's binary, installed from Debian first when missing (as root); a clear error otherwise. */
export function ensureTool(name: DebianTool): Promise<string>;
