// promise.withresolvers ships no type declarations; the benchmark only calls its shim. The package is CommonJS: its
// export is a function whose `shim` is not enumerable, so a dynamic import reaches it through `default` only.
declare module 'promise.withresolvers' {
  const withResolvers: { shim(): void };
  export default withResolvers;
}
