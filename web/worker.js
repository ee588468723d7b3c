// The engine's worker: instantiates the compiled raven module and runs one request, posting
// every JSON message the module sends back. The page ends a computation by terminating the
// worker, so each worker runs one request and a fresh instance holds no memory of the last.
self.onmessage = async (event) => {
  const { module, request } = event.data;
  let instance;
  const decoder = new TextDecoder();
  const imports = {
    env: {
      progress(ptr, len) {
        const bytes = new Uint8Array(instance.exports.memory.buffer, ptr, len);
        self.postMessage(decoder.decode(bytes));
      },
    },
  };
  try {
    instance = await WebAssembly.instantiate(module, imports);
    const text = new TextEncoder().encode(JSON.stringify(request));
    const ptr = instance.exports.alloc(text.length);
    new Uint8Array(instance.exports.memory.buffer, ptr, text.length).set(text);
    instance.exports.compute(ptr, text.length);
  } catch (e) {
    // A trap (out of memory, an internal error): say so instead of waiting forever.
    self.postMessage(JSON.stringify({ type: 'error', field: 'engine', message: `the engine stopped: ${e}` }));
    self.postMessage(JSON.stringify({ type: 'done' }));
  }
};
