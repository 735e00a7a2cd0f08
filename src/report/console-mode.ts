// How the console shows a certification, decided in one place for every command: live (listr2) only
// on a terminal outside CI, colours only then and unless NO_COLOR is set (https://no-color.org: set
// and not empty). A leaf, so the CLI can decide before it loads the reporters.

export interface ConsoleMode {
  interactive: boolean;
  color: boolean;
}

export function consoleModeOf(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): ConsoleMode {
  const set = (name: string): boolean => env[name] !== undefined && env[name] !== '';
  const interactive = (stream as Partial<NodeJS.WriteStream>).isTTY === true && !set('CI');
  return { interactive, color: interactive && !set('NO_COLOR') };
}
