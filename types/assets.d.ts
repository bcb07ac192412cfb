// Non-code imports the client webpack config handles (style-loader, asset modules).
declare module '*.css';
declare module '*.wav' {
  const url: string;
  export default url;
}
declare module '*.svg' {
  const url: string;
  export default url;
}
