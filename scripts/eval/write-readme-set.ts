/**
 * Writes build/eval-readmes/, build/eval-readmes-2/ and build/eval-readmes-3/: evaluation sets in
 * the format of shared/eval/README.md over another kind of corpus than the
 * others, the documentation a site author would put behind the chat box
 * (readme-corpus.ts). The first set's conversations below were written by
 * hand on 2026-11-24 (session 17) as a developer would ask, with human
 * rewrites and gold sections, and measured once before any rule was changed;
 * the second set's (readme-set-2.ts) in session 18 and the third's
 * (readme-set-3.ts) in session 19, held out in the same way
 * (figures in the README's *Quality* section).
 *
 * `npx tsx scripts/eval/write-readme-set.ts && npm run eval -- --data build/eval-readmes` (or `build/eval-readmes-2`, `build/eval-readmes-3`)
 */
import { turn, writeReadmeSet, type ReadmeSet } from './readme-corpus';
import { SECOND } from './readme-set-2';
import { THIRD } from './readme-set-3';

const FIRST: ReadmeSet = {
  folder: 'eval-readmes',
  prefix: 'readmes',
  packages: [
    ['idb', 'idb', 'idb'],
    ['comlink', 'comlink', 'Comlink'],
    ['web-llm', '@mlc-ai/web-llm', 'WebLLM'],
    ['fake-indexeddb', 'fake-indexeddb', 'fake-indexeddb'],
  ],
  conversations: [
    ['idb-open', [
      turn('How do I open a database with idb?', 'How do I open a database with idb?', ['idb/opendb'], 'first',
        'Call openDB(name, version, { upgrade, blocked, blocking, terminated }). It returns a promise for an enhanced IDBDatabase; upgrade runs when this version of the database has never been opened before.'),
      turn('what happens if another tab has it open with an older version?', 'What happens when I open an idb database while another tab has it open with an older version?', ['idb/opendb'], 'followup',
        'The blocked callback is called if older versions of the database are open on the origin, so this version cannot open; the other connection gets blocking.'),
      turn('And how do I delete it?', 'How do I delete an IndexedDB database with idb?', ['idb/deletedb'], 'followup',
        'await deleteDB(name, { blocked() {} }): blocked is called if the database is still open.'),
      turn('why does my transaction close before I am done?', 'Why does my idb transaction close before I am done?', ['idb/transaction-lifetime'], 'followup',
        'Do not await other things between the start and the end of a transaction: it closes once no requests are pending and control returns to the event loop.'),
      turn('how do I know when it has finished?', 'How do I know when an idb transaction has finished?', ['idb/tx-done'], 'followup',
        'Transactions have a .done promise that resolves when the transaction completes and rejects with its error otherwise.'),
    ]],
    ['comlink-basics', [
      turn('What is Comlink for?', 'What is Comlink for?', ['comlink/comlink', 'comlink/introduction'], 'first',
        'Comlink makes WebWorkers enjoyable: a tiny library that removes the mental barrier of thinking about postMessage and hides the fact that you are working with workers.'),
      turn('how do I call a function in a worker with it?', 'How do I call a function in a web worker with Comlink?', ['comlink/running-a-simple-function', 'comlink/comlink-wrap-endpoint-and-comlink-expose-value-endpoint-allowedorigins'], 'followup',
        'Expose an object in the worker with Comlink.expose(obj), wrap the worker on the main thread with Comlink.wrap(worker), and await its methods.'),
      turn('can I pass a callback?', 'Can I pass a callback function to a web worker with Comlink?', ['comlink/callbacks', 'comlink/comlink-transfer-value-transferables-and-comlink-proxy-value'], 'followup',
        'Wrap the function in Comlink.proxy(callback) and pass that; the worker can then call it.'),
      turn('what about large array buffers, are they copied?', 'Are large ArrayBuffers copied when passed to a worker with Comlink, or can they be transferred?', ['comlink/comlink-transfer-value-transferables-and-comlink-proxy-value'], 'followup',
        'By default every parameter is structured-cloned; Comlink.transfer(value, [buffer]) transfers the buffer instead of copying it.'),
      turn('how do I clean up the proxy when I am done', 'How do I release a Comlink proxy when I am done with it?', ['comlink/comlink-releaseproxy', 'comlink/comlink-finalizer'], 'followup',
        'Call proxy[Comlink.releaseProxy]() to detach the proxy and the exposed object from the message channel.'),
    ]],
    ['web-llm-start', [
      turn('How do I load a model with WebLLM?', 'How do I load a model with WebLLM?', ['web-llm/create-mlcengine'], 'first',
        'Create an MLCEngine with CreateMLCEngine(selectedModel, { initProgressCallback }): it loads the model and reports the loading progress.'),
      turn('can it stream the answer?', 'Can WebLLM stream the chat completion as it is generated?', ['web-llm/streaming'], 'followup',
        'Yes: pass stream: true to engine.chat.completions.create and iterate over the chunks.'),
      turn('where are the weights cached?', 'Where does WebLLM cache the model weights?', ['web-llm/cache-backend-policy'], 'followup',
        'In the browser Cache API by default; AppConfig.cacheBackend can choose IndexedDB or the origin private file system instead.'),
      turn("can I run it in a worker so the page doesn't freeze", "Can I run the WebLLM engine in a web worker so the page doesn't freeze?", ['web-llm/using-workers', 'web-llm/dedicated-web-worker'], 'followup',
        'Yes: create a WebWorkerMLCEngineHandler in the worker and a WebWorkerMLCEngine on the main thread with CreateWebWorkerMLCEngine.'),
      turn('what about a service worker?', 'How do I run WebLLM in a service worker?', ['web-llm/use-service-worker'], 'followup',
        'Use ServiceWorkerMLCEngineHandler in the service worker and CreateServiceWorkerMLCEngine on the page, so the model is not reloaded on every page visit.'),
    ]],
    ['fake-indexeddb-tests', [
      turn('How can I test IndexedDB code in Node?', 'How can I test IndexedDB code in Node?', ['fake-indexeddb/fake-indexeddb', 'fake-indexeddb/use'], 'first',
        'fake-indexeddb is a pure JS in-memory implementation of the IndexedDB API, mainly for testing; import fake-indexeddb/auto to populate the global IndexedDB variables.'),
      turn('does it work with jest?', 'Does fake-indexeddb work with Jest?', ['fake-indexeddb/jest', 'fake-indexeddb/jsdom-often-used-with-jest'], 'followup',
        'Yes: require fake-indexeddb/auto at the beginning of the test file, or add it to setupFiles to use it in every suite.'),
      turn('how do I reset it between tests?', 'How do I reset fake-indexeddb between tests?', ['fake-indexeddb/wiping-resetting-the-indexeddb-for-a-fresh-state'], 'followup',
        'Create a new instance of IDBFactory and assign it to indexedDB whenever you want a fresh start.'),
      turn('how close is it to real browsers', 'How close is fake-indexeddb to the IndexedDB of real browsers?', ['fake-indexeddb/quality'], 'followup',
        'On the Web Platform Tests IndexedDB suite it passes about 82% of the tests, the browsers over 99%; most of what it misses are rare edge cases.'),
      turn('Does Dexie work with fake-indexeddb?', 'Does Dexie work with fake-indexeddb?', ['fake-indexeddb/dexie-and-other-indexeddb-api-wrappers'], 'standalone',
        'Yes, if fake-indexeddb/auto is imported before dexie.'),
    ]],
    ['idb-types', [
      turn('Can I get typed stores with idb in TypeScript?', 'Can I get typed stores with idb in TypeScript?', ['idb/typescript'], 'first',
        'Yes: describe the database with an interface that extends DBSchema and open it with openDB<MyDB>; store names, keys, values and indexes are then typed.'),
      turn("what if I don't want types for some stores", "What if I don't want idb's types for some stores?", ['idb/opting-out-of-types'], 'followup',
        'Without a schema type the database uses basic types; to reach stores outside the schema, during an upgrade for example, cast the database to another IDBPDatabase type.'),
      turn('What does Comlink.Remote mean in TypeScript?', 'What does Comlink.Remote mean in TypeScript?', ['comlink/typescript'], 'standalone',
        'When you expose() something of type T, wrap() returns a Comlink.Remote<T>: the same API with every call returning a promise.'),
      turn('does it work in node too?', 'Does Comlink work in Node too?', ['comlink/node'], 'followup',
        "Comlink works with Node's worker_threads module; there is an example in the docs folder."),
    ]],
    ['idb-shortcuts', [
      turn('is there a shortcut to get one value from a store without a transaction?', 'is there a shortcut to get one value from a store without a transaction?', ['idb/shortcuts-to-get-set-from-an-object-store'], 'first',
        "Yes: db.get('store', key), and also getKey, getAll, getAllKeys, count, put, add, delete and clear; each creates a transaction for that one action."),
      turn('and from an index?', 'Is there a shortcut in idb to get a value from an index without a transaction?', ['idb/shortcuts-to-get-from-an-index'], 'followup',
        'Yes: getFromIndex, getKeyFromIndex, getAllFromIndex, getAllKeysFromIndex and countFromIndex.'),
      turn('how do I loop over all the records?', 'How do I loop over all the records of an idb store?', ['idb/async-iterators', 'idb/idbcursor-enhancements'], 'followup',
        'Iterate over the store with for await (const cursor of tx.store); each yielded object is an IDBCursor.'),
      turn('can I skip some items while doing that?', 'Can I skip some items while iterating over an idb store?', ['idb/async-iterators', 'idb/idbcursor-enhancements'], 'followup',
        'Yes: call cursor.advance(n) inside the loop; if you do not advance it, continue() is called for you.'),
    ]],
    ['web-llm-models', [
      turn('Which models does WebLLM support?', 'Which models does WebLLM support?', ['web-llm/built-in-models'], 'first',
        'A subset of the models on MLC Models: the list is in prebuiltAppConfig.model_list, with Llama, Phi, Gemma, Mistral, Qwen and others.'),
      turn('can I use my own fine-tuned one?', 'Can I use my own fine-tuned model with WebLLM?', ['web-llm/custom-models'], 'followup',
        'Yes: compile it in the MLC format and add a ModelRecord with its model URL, model_id and model_lib to the appConfig.'),
      turn("how do I make sure the downloaded files weren't tampered with", "How do I make sure the model files WebLLM downloads weren't tampered with?", ['web-llm/integrity-verification'], 'followup',
        'Set the integrity field of the ModelRecord: WebLLM then checks the config, WASM and tokenizer files against SRI hashes before loading.'),
      turn('which hash algorithms are accepted?', 'Which hash algorithms does WebLLM integrity verification accept?', ['web-llm/integrity-verification'], 'followup',
        'SHA-256, SHA-384 and SHA-512, written as SRI strings.'),
    ]],
    ['comlink-windows', [
      turn('How do I talk to an iframe with Comlink?', 'How do I talk to an iframe with Comlink?', ['comlink/comlink-windowendpoint-window-context-self-targetorigin'], 'first',
        'Use Comlink.windowEndpoint(window, context, targetOrigin): windows and workers have slightly different postMessage, and windowEndpoint adapts a window for wrap and expose.'),
      turn('is that safe if the other origin is untrusted?', 'Is it safe to talk to an iframe with Comlink if its origin is untrusted?', ['comlink/comlink-wrap-endpoint-and-comlink-expose-value-endpoint-allowedorigins', 'comlink/comlink-windowendpoint-window-context-self-targetorigin'], 'followup',
        'Restrict it: expose takes allowedOrigins (all origins by default) and windowEndpoint a targetOrigin.'),
      turn('what about a shared worker', 'How do I use Comlink with a SharedWorker?', ['comlink/sharedworker'], 'followup',
        'Use the port property of the SharedWorker when calling Comlink.wrap, and call Comlink.expose on the port in the onconnect handler.'),
      turn('how do I add an event listener across threads', 'How do I add an event listener with Comlink when the event source is on another thread?', ['comlink/transfer-handlers-and-event-listeners'], 'followup',
        'Events cannot be structured-cloned: register a transfer handler that picks the fields you need, or proxy the listener.'),
    ]],
    ['web-llm-openai', [
      turn("Is the WebLLM API compatible with OpenAI's?", "Is the WebLLM API compatible with OpenAI's?", ['web-llm/full-openai-compatibility'], 'first',
        'Yes: WebLLM is designed to be fully compatible with the OpenAI API, with streaming, JSON mode, seeding and more.'),
      turn('show me a basic chat completion call', 'Show me a basic chat completion call with WebLLM.', ['web-llm/chat-completion'], 'followup',
        'const reply = await engine.chat.completions.create({ messages }); reply.choices[0].message holds the answer.'),
      turn('how do I get the tokens as they are generated?', 'How do I get the tokens of a WebLLM chat completion as they are generated?', ['web-llm/streaming'], 'followup',
        'Pass stream: true and read the chunks with for await; each has choices[0].delta.content.'),
      turn('Can I build a Chrome extension with WebLLM?', 'Can I build a Chrome extension with WebLLM?', ['web-llm/chrome-extension'], 'standalone',
        'Yes: see examples/chrome-extension and examples/chrome-extension-webgpu-service-worker.'),
    ]],
    ['idb-install', [
      turn('how do I install idb', 'how do I install idb', ['idb/using-npm'], 'first',
        "npm install idb, then import { openDB, deleteDB, wrap, unwrap } from 'idb'."),
      turn('can I use it without a bundler?', 'Can I use idb without a bundler?', ['idb/using-the-modules-method-directly-via-jsdelivr', 'idb/using-external-script-reference'], 'followup',
        "Yes: import it as a module from jsdelivr, or load the UMD build with a script tag and call idb.openDB."),
      turn('which browsers does it support', 'Which browsers does idb support?', ['idb/browser-support'], 'followup',
        'Modern browsers: Chrome, Firefox, Safari and those built on their engines, such as Edge. IE is not supported.'),
      turn('does it throw or return promises on errors?', 'Does idb throw errors or return rejected promises?', ['idb/promises-throwing'], 'followup',
        'It turns every IDBRequest into a promise, but it cannot know in advance which methods return promises, so methods that throw synchronously in IndexedDB still throw.'),
    ]],
  ],
};

for (const set of [FIRST, SECOND, THIRD]) writeReadmeSet(set);
