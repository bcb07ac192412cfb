export function listening(url: string, defaultPort: number): Promise<boolean>;
