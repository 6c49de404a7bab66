/**
 * The fifth README set (build/eval-readmes-5/): magic-string, ignore and
 * @msgpack/msgpack, whose READMEs are in node_modules through the project's
 * tools. Ten conversations written by hand on 2026-11-24 (session 21) as a
 * developer would ask, with rewrites and gold sections, before anything ran on
 * them and before any condenser change of that session: held out from every
 * rule and weight chosen up to then.
 */
import { turn, type ReadmeSet } from './readme-corpus';

export const FIFTH: ReadmeSet = {
  folder: 'eval-readmes-5',
  prefix: 'readmes5',
  packages: [
    ['magic-string', 'magic-string', 'magic-string'],
    ['ignore', 'ignore', 'ignore'],
    ['msgpack', '@msgpack/msgpack', '@msgpack/msgpack'],
  ],
  conversations: [
    ['magic-string-basics', [
      turn('What is magic-string for?', 'What is magic-string for?', ['magic-string/magic-string'], 'first',
        'Making light changes to source code (replacing a few characters, adding a header and footer) and generating a sourcemap for them.'),
      turn('how do I install it?', 'How do I install magic-string?', ['magic-string/installation'], 'followup',
        'npm i magic-string; in a browser, add magic-string.umd.js with a script tag.'),
      turn('how do I replace a few characters?', 'How do I replace some characters of a string with magic-string?', ['magic-string/s-update-start-end-content-options', 'magic-string/s-overwrite-start-end-content-options', 'magic-string/usage'], 'followup',
        'Call s.update(start, end, content), for example s.update(0, 8, "answer").'),
      turn('do the positions shift after I edit it?', 'Do character indices in magic-string change after an edit, or refer to the original string?', ['magic-string/usage'], 'followup',
        'No: character indices always refer to the original string.'),
    ]],
    ['magic-string-sourcemaps', [
      turn('How do I generate a sourcemap with magic-string?', 'How do I generate a sourcemap with magic-string?', ['magic-string/s-generatemap-options', 'magic-string/usage'], 'first',
        'Call s.generateMap({ source, file, includeContent }): it returns a version 3 sourcemap.'),
      turn('what does hires do?', 'What does the hires option of magic-string generateMap do?', ['magic-string/s-generatemap-options'], 'followup',
        'It makes high-resolution mappings that map every single character, instead of only lines.'),
      turn('can I get the mappings as arrays instead of an encoded string?', 'How do I get a magic-string sourcemap with raw mappings in array form?', ['magic-string/s-generatedecodedmap-options'], 'followup',
        'Use s.generateDecodedMap(options): the mappings come as arrays, not encoded.'),
      turn('and keep the original names?', 'How do I keep the original names in a magic-string sourcemap when I replace content?', ['magic-string/s-update-start-end-content-options', 'magic-string/s-overwrite-start-end-content-options'], 'followup',
        'Pass { storeName: true } to update or overwrite: the original name goes into the sourcemap names array.'),
    ]],
    ['magic-string-edits', [
      turn('What is the difference between update and overwrite in magic-string?', 'What is the difference between update and overwrite in magic-string?', ['magic-string/s-update-start-end-content-options', 'magic-string/s-overwrite-start-end-content-options'], 'first',
        'overwrite also replaces what was appended or prepended in the range; update replaces only the original content (it is overwrite with contentOnly: true).'),
      turn('how do I undo a removal?', 'How do I restore characters removed with magic-string?', ['magic-string/s-reset-start-end'], 'followup',
        's.reset(start, end) restores previously removed characters.'),
      turn('what happens if I remove the same range twice?', 'What happens if I remove the same content twice with magic-string?', ['magic-string/s-remove-start-end'], 'followup',
        'Removing the same content twice, or removals that partially overlap, cause an error.'),
      turn('can I insert text that moves along when that range is moved?', 'How do I insert content with magic-string so that it moves with a range that is moved?', ['magic-string/s-appendleft-index-content', 'magic-string/s-appendright-index-content'], 'followup',
        'Use appendLeft(index, content): if a range ending at index is moved, the insert moves with it.'),
    ]],
    ['magic-string-bundle', [
      turn('How do I concatenate several files with magic-string?', 'How do I concatenate several files with magic-string?', ['magic-string/bundling'], 'first',
        'Use new MagicString.Bundle() and addSource({ filename, content }) for each file.'),
      turn('can I hide some of them from the debugger?', 'How do I mark a source of a MagicString.Bundle as ignore-listed for debuggers?', ['magic-string/bundling'], 'followup',
        'Add the source with ignoreList set: a hint to debuggers not to step into it.'),
      turn('does it indent them too?', 'Can a MagicString.Bundle indent its sources?', ['magic-string/bundling', 'magic-string/s-indent-prefix-options'], 'followup',
        'Yes: bundle.indent() indents them, with the indent string you pass or one guessed.'),
      turn('How do I prefix every line of a string with a tab in magic-string?', 'How do I prefix every line of a string with a tab in magic-string?', ['magic-string/s-indent-prefix-options'], 'standalone',
        's.indent(prefix) prefixes each line; without a prefix the indentation is guessed, falling back to a tab.'),
    ]],
    ['ignore-basics', [
      turn('How do I filter a list of paths with .gitignore rules using ignore?', 'How do I filter a list of paths with .gitignore rules using ignore?', ['ignore/filter-the-given-paths', 'ignore/usage', 'ignore/filter-paths-array-pathname-array-pathname'], 'first',
        'const ig = ignore().add(rules); ig.filter(paths) returns the paths that are not ignored.'),
      turn('can I use it with Array.prototype.filter?', 'How do I use ignore with Array.prototype.filter?', ['ignore/as-the-filter-function', 'ignore/createfilter'], 'followup',
        'Yes: paths.filter(ig.createFilter()).'),
      turn('how do I check just one path?', 'How do I check whether a single path is ignored with ignore?', ['ignore/ignores-pathname-pathname-boolean', 'ignore/filter-the-given-paths'], 'followup',
        "ig.ignores('.abc/a.js') returns true or false."),
      turn('and whether a negative pattern brought it back?', 'How do I tell with ignore whether a path was unignored by a negative pattern?', ['ignore/test-pathname-pathname-since-5-0-0'], 'followup',
        'ig.test(path) returns { ignored, unignored }; unignored is true when a negative pattern re-included it.'),
    ]],
    ['ignore-paths', [
      turn("Why does ignore throw an error for './abc'?", "Why does ignore throw an error for './abc'?", ['ignore/1-pathname-should-be-a-path-relative-d-pathname', 'ignore/upgrade-4-x-5-x'], 'first',
        'Since 5.0.0 a pathname must be a path.relative()d path; ./abc, /abc and C:\\abc throw.'),
      turn('how do I turn that check off?', "How do I make ignore accept relative paths like './abc' without throwing?", ['ignore/options-allowrelativepaths-boolean-since-5-2-0', 'ignore/upgrade-4-x-5-x'], 'followup',
        'Create it with ignore({ allowRelativePaths: true }).'),
      turn('how can I validate a path before passing it in?', 'How do I check whether a pathname is valid for ignore before passing it?', ['ignore/static-ignore-ispathvalid-pathname-boolean-since-5-0-0', 'ignore/upgrade-4-x-5-x'], 'followup',
        "Use ignore.isPathValid(path): ignore.isPathValid('./foo') is false."),
      turn('does it know whether config is a directory?', "Does ignore know whether 'config' is a directory when matching a pattern like 'config/'?", ['ignore/2-filenames-and-dirnames'], 'followup',
        "No: it does no fs.stat, so 'config' is treated as a file; pass 'config/' for a directory."),
    ]],
    ['ignore-patterns', [
      turn('Is matching in ignore case sensitive?', 'Is matching in ignore case sensitive?', ['ignore/options-ignorecase-since-4-0-0'], 'first',
        'No by default: ignorecase is true, as in git.'),
      turn('how do I change that?', 'How do I make ignore case sensitive?', ['ignore/options-ignorecase-since-4-0-0', 'ignore/options-ignorecase-boolean-since-5-2-0'], 'followup',
        'Create it with ignore({ ignorecase: false }).'),
      turn('how do I match a file whose name starts with a hash?', 'How do I write an ignore pattern for a file name that starts with a hash?', ['ignore/add-patterns-array-this'], 'followup',
        'Escape the hash with a backslash: a line starting with # is a comment.'),
      turn('can I add the whole contents of a .gitignore file at once?', 'Can I pass the whole contents of a .gitignore file to ignore().add()?', ['ignore/add-patterns-array-this', 'ignore/addignorefile-path'], 'followup',
        'Yes: add() takes a string of several patterns, so read the file and pass its text.'),
    ]],
    ['msgpack-basics', [
      turn('How do I encode an object to MessagePack in JavaScript?', 'How do I encode an object to MessagePack in JavaScript?', ['msgpack/encode-data-unknown-options-encoderoptions-uint8array', 'msgpack/synopsis'], 'first',
        'import { encode } from "@msgpack/msgpack"; encode(object) returns a Uint8Array.'),
      turn('how do I get a Node Buffer from it without copying?', 'How do I turn the Uint8Array from msgpack encode into a Node.js Buffer without copying?', ['msgpack/encode-data-unknown-options-encoderoptions-uint8array'], 'followup',
        'Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength) shares the ArrayBuffer.'),
      turn('what if the buffer has several objects in it?', 'How do I decode a buffer holding several MessagePack objects with @msgpack/msgpack?', ['msgpack/decodemulti-buffer-arraylike-number-buffersource-options-decoderoptions-generator-unknown-void-unknown', 'msgpack/decode-buffer-arraylike-number-buffersource-options-decoderoptions-unknown'], 'followup',
        'decode() throws on extra bytes; use decodeMulti(buffer), a generator of the decoded objects.'),
      turn('and from a stream?', 'How do I decode several MessagePack objects from a stream with @msgpack/msgpack?', ['msgpack/decodemultistream-stream-readablestreamlike-arraylike-number-buffersource-options-decoderoptions-asynciterable-unknown'], 'followup',
        'for await (const item of decodeMultiStream(stream)) { … }'),
    ]],
    ['msgpack-types', [
      turn('Does @msgpack/msgpack support BigInt?', 'Does @msgpack/msgpack support BigInt?', ['msgpack/handling-bigint-with-extensioncodec'], 'first',
        'Not by default: set useBigInt64: true, or define an ExtensionCodec for bigint.'),
      turn('what are the downsides of useBigInt64?', 'What are the limitations of the useBigInt64 option of @msgpack/msgpack?', ['msgpack/handling-bigint-with-extensioncodec'], 'followup',
        'Every bigint takes 8 bytes, even a small one, and it must fit in int64/uint64.'),
      turn('how are dates encoded?', 'How does @msgpack/msgpack encode Date values?', ['msgpack/messagepack-mapping-table', 'msgpack/the-temporal-module-as-timestamp-extensions'], 'followup',
        'A Date maps to the MessagePack timestamp extension and decodes to a Date.'),
      turn('can I register my own type, like a Set?', 'How do I register a custom extension type for Set with @msgpack/msgpack?', ['msgpack/extension-types'], 'followup',
        'Create an ExtensionCodec and register({ type, encode, decode }), then pass { extensionCodec } to encode and decode.'),
    ]],
    ['msgpack-performance', [
      turn('How can I make @msgpack/msgpack faster when encoding lots of objects?', 'How can I make @msgpack/msgpack faster when encoding lots of objects?', ['msgpack/reusing-encoder-and-decoder-instances'], 'first',
        'Reuse one Encoder and one Decoder instance instead of calling encode() and decode().'),
      turn('how much faster is that?', 'How much faster is reusing an Encoder or Decoder instance in @msgpack/msgpack?', ['msgpack/reusing-encoder-and-decoder-instances'], 'followup',
        'About 20% for the Encoder and 2% for the Decoder, in their benchmark.'),
      turn('what about a big array of floats?', 'How do I decode a large array of floating point numbers faster with @msgpack/msgpack?', ['msgpack/faster-way-to-decode-a-large-array-of-floating-point-numbers'], 'followup',
        'Define an extension type for Float32Array whose encode aligns the buffer.'),
      turn('How do I read a MessagePack binary from a Blob in the browser?', 'How do I read a MessagePack binary from a Blob in the browser?', ['msgpack/decoding-a-blob'], 'standalone',
        'decodeAsync(blob.stream()), or decode(await blob.arrayBuffer()).'),
      turn('which node version do I need?', 'Which Node.js version does @msgpack/msgpack require?', ['msgpack/nodejs'], 'followup',
        'Node.js 18.'),
    ]],
  ],
};
