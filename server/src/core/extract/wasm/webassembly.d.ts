// The parts of the WebAssembly JavaScript API the lexer uses: the project's lib (ES2022, no DOM)
// and @types/node 20 do not declare them.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, never>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Global {
    value: unknown;
  }
  function validate(bytes: Uint8Array): boolean;
}
