// One of the page's engine workers: runs its list of requests one after the other, each in a
// fresh instance of the compiled raven module (so each starts with empty memory), posting
// every JSON message the module sends back, then `lane-done`. The page ends a computation by
// terminating its workers.
self.onmessage = async (event) => {
  const { module, requests } = event.data;
  const decoder = new TextDecoder();
  for (const request of requests) {
    let instance;
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
  }
  self.postMessage(JSON.stringify({ type: 'lane-done' }));
};
