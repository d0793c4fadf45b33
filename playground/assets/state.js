// The page's state outside the page: the URL fragment and localStorage hold the rules, the program, the passes,
// the target, the tab, the graph's view and the selected op, so that a reload (or a link) brings the work back.
//
// Fragments: #z=<base64url of the deflate-raw compressed JSON> (written since links were compressed), and the
// older #s=<base64url of the JSON>, still read. Compression is the browser's CompressionStream: the fragment never
// reaches the server, so the rules of a link stay on the machines that open it, and no request is needed to make
// or read one.
(function () {
  "use strict";

  const storageKey = "drrc-playground:state";

  function toBase64url(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64url(s) {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  // through pipes bytes through a CompressionStream or DecompressionStream.
  function through(stream, bytes) {
    const out = new Blob([bytes]).stream().pipeThrough(stream);
    return new Response(out).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  // encode returns the fragment (without #) holding obj: z=… compressed, or s=… where the browser cannot compress.
  function encode(obj) {
    const json = new TextEncoder().encode(JSON.stringify(obj));
    if (typeof CompressionStream === "undefined") return Promise.resolve("s=" + toBase64url(json));
    return through(new CompressionStream("deflate-raw"), json).then(function (z) { return "z=" + toBase64url(z); });
  }

  // decode reads the state of a fragment (location.hash); it resolves to null when the fragment holds none, and
  // rejects when it is damaged.
  function decode(hash) {
    const m = /[#&]([sz])=([\w-]+)/.exec(hash || "");
    if (!m) return Promise.resolve(null);
    return Promise.resolve().then(function () {
      const bytes = fromBase64url(m[2]);
      if (m[1] === "s") return bytes;
      if (typeof DecompressionStream === "undefined") throw new Error("this browser cannot decompress the link");
      return through(new DecompressionStream("deflate-raw"), bytes);
    }).then(function (bytes) {
      const st = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      if (!st || typeof st !== "object") throw new Error("no state in the link");
      return st;
    });
  }

  // load returns the state kept in localStorage, or null.
  function load() {
    try {
      const st = JSON.parse(localStorage.getItem(storageKey) || "null");
      return st && typeof st === "object" ? st : null;
    } catch (err) {
      return null; // storage off, or not ours: start afresh
    }
  }

  // save keeps obj in localStorage and the URL's fragment (replacing the history entry: no entry per keystroke).
  // It resolves to the fragment.
  function save(obj) {
    try {
      localStorage.setItem(storageKey, JSON.stringify(obj));
    } catch (err) {
      // full or off: the fragment still holds the state
    }
    return encode(obj).then(function (frag) {
      history.replaceState(null, "", location.pathname + location.search + "#" + frag);
      return frag;
    });
  }

  window.PlaygroundState = { encode: encode, decode: decode, load: load, save: save, storageKey: storageKey };
})();
