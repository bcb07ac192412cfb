export function haproxyConfig(cluster: { port: number; nodes: Array<{ id: string; port: number }> }): string;
