/**
 * The third README set (build/eval-readmes-3/): semver, ws and debug, whose
 * READMEs are in node_modules through the project's tools. Ten conversations
 * written by hand on 2026-11-24 (session 19) as a developer would ask, with
 * rewrites and gold sections, after the subject and verb-phrase rules of that
 * session and before anything ran on them: held out from every rule and weight
 * chosen up to then (the second set no longer is: one rule came from its failures).
 */
import { turn, type ReadmeSet } from './readme-corpus';

export const THIRD: ReadmeSet = {
  folder: 'eval-readmes-3',
  prefix: 'readmes3',
  packages: [
    ['semver', 'semver', 'semver'],
    ['ws', 'ws', 'ws'],
    ['debug', 'debug', 'debug'],
  ],
  conversations: [
    ['semver-ranges', [
      turn('How do I check if a version satisfies a range with semver?', 'How do I check if a version satisfies a range with semver?', ['semver/functions-ranges'], 'first',
        'Call semver.satisfies(version, range): it returns true if the version satisfies the range.'),
      turn('what does the caret mean in ^1.2.3?', 'What does the caret mean in a semver range like ^1.2.3?', ['semver/caret-ranges-1-2-3-0-2-5-0-0-4'], 'followup',
        'It allows changes that do not modify the left-most non-zero element: ^1.2.3 is >=1.2.3 <2.0.0-0.'),
      turn('and the tilde?', 'What does the tilde mean in a semver range like ~1.2.3?', ['semver/tilde-ranges-1-2-3-1-2-1'], 'followup',
        'Patch-level changes if a minor version is given: ~1.2.3 is >=1.2.3 <1.3.0-0.'),
      turn("why doesn't it match 2.0.0-beta.1?", "Why doesn't the semver range ^1.2.3 match the prerelease version 2.0.0-beta.1?", ['semver/prerelease-tags'], 'followup',
        'A prerelease version only satisfies a range if a comparator with the same major, minor and patch also has a prerelease tag.'),
      turn('how do I make it include prereleases anyway?', 'How do I make a semver range include prerelease versions?', ['semver/prerelease-tags', 'semver/functions'], 'followup',
        'Set the includePrerelease flag on the options object.'),
    ]],
    ['semver-coerce', [
      turn("How do I turn a messy version string like 'v2' into a valid semver version?", "How do I turn a messy version string like 'v2' into a valid semver version?", ['semver/coercion', 'semver/clean'], 'first',
        "semver.coerce('v2') gives 2.0.0: it takes the first digits it finds and ignores the text around them."),
      turn('what does it do with 1.2.3.4?', 'What does semver.coerce do with a version like 1.2.3.4?', ['semver/coercion'], 'followup',
        'Longer versions are truncated: 1.2.3.4 becomes 1.2.3.'),
      turn('is there a way to take the right-most one instead?', 'Can semver.coerce take the right-most version in a string instead?', ['semver/coercion'], 'followup',
        'Yes, with the rtl option: 1.2.3.4 then gives 2.3.4.'),
    ]],
    ['semver-sort', [
      turn('How do I sort a list of versions with semver?', 'How do I sort a list of versions with semver?', ['semver/sorting', 'semver/comparison'], 'first',
        'semver.sort(versions), or pass semver.compare to Array.sort.'),
      turn('in descending order?', 'How do I sort a list of versions in descending order with semver?', ['semver/sorting', 'semver/comparison'], 'followup',
        'semver.rsort(versions), or Array.sort with semver.rcompare.'),
      turn('how can I tell whether two versions differ by a major or a minor release?', 'How can I tell with semver whether two versions differ by a major or a minor release?', ['semver/comparison'], 'followup',
        'semver.diff(v1, v2) returns the release type of the difference, or null if they are the same.'),
      turn('Is there a command line tool for semver?', 'Is there a command line tool for semver?', ['semver/usage'], 'standalone',
        'Yes: the semver command; semver -h prints its usage.'),
    ]],
    ['semver-bump', [
      turn('How do I bump the minor version of 1.2.3 with semver?', 'How do I bump the minor version of 1.2.3 with semver?', ['semver/functions'], 'first',
        "semver.inc('1.2.3', 'minor') returns 1.3.0."),
      turn('and to a beta prerelease?', 'How do I bump a version to a beta prerelease with semver?', ['semver/prerelease-identifiers'], 'followup',
        "Pass an identifier: semver.inc('1.2.3', 'prerelease', 'beta') returns 1.2.4-beta.0."),
      turn('can the number start at 1 instead of 0?', 'Can the prerelease number semver.inc adds start at 1 instead of 0?', ['semver/prerelease-identifier-base'], 'followup',
        "Yes: the identifierBase argument, '1' for one-based numbers."),
    ]],
    ['ws-server', [
      turn('How do I start a WebSocket server with ws?', 'How do I start a WebSocket server with ws?', ['ws/simple-server'], 'first',
        "new WebSocketServer({ port: 8080 }), then listen for 'connection' and the socket's 'message' events."),
      turn('can it share a port with my existing http server?', 'Can a ws WebSocket server share a port with my existing HTTP server?', ['ws/external-http-s-server', 'ws/multiple-servers-sharing-a-single-http-s-server'], 'followup',
        "Yes: pass your server as the server option, or use noServer and call handleUpgrade from the server's 'upgrade' event."),
      turn('how do I send a message to every connected client?', 'How do I send a message to every client connected to a ws server?', ['ws/server-broadcast'], 'followup',
        'Loop over wss.clients and send to each one whose readyState is OPEN.'),
      turn('how do I get their IP addresses?', 'How do I get the IP address of a client connected to a ws server?', ['ws/how-to-get-the-ip-address-of-the-client'], 'followup',
        "From req.socket.remoteAddress in the 'connection' handler, or X-Forwarded-For behind a proxy."),
    ]],
    ['ws-auth', [
      turn('How do I authenticate clients before accepting a WebSocket connection with ws?', 'How do I authenticate clients before accepting a WebSocket connection with ws?', ['ws/client-authentication'], 'first',
        "Use noServer, authenticate the request in the HTTP server's 'upgrade' event, and call wss.handleUpgrade only if it passes."),
      turn('what should I send back if it fails?', 'What should a ws server send back when client authentication fails?', ['ws/client-authentication'], 'followup',
        'Write an HTTP/1.1 401 Unauthorized response to the socket and destroy it.'),
      turn('and how do I notice when a client just disappears without closing?', 'How do I detect broken connections with ws when a client disappears without closing?', ['ws/how-to-detect-and-close-broken-connections'], 'followup',
        'Send pings at an interval and terminate the connections that did not answer with a pong since the last one.'),
    ]],
    ['ws-performance', [
      turn('Should I enable compression in ws?', 'Should I enable compression in ws?', ['ws/websocket-compression'], 'first',
        'Only if you really need it: permessage-deflate adds significant overhead in performance and memory.'),
      turn('why is it off by default on the server?', 'Why is permessage-deflate compression off by default on the ws server?', ['ws/websocket-compression'], 'followup',
        'Because of that overhead, and because Node.js can suffer memory fragmentation and slow performance with high-concurrency compression.'),
      turn('are there native addons that make it faster?', 'Are there native addons that make ws faster?', ['ws/legacy-opt-in-for-performance'], 'followup',
        'On older Node.js versions, bufferutil and utf-8-validate, installed as optional dependencies.'),
      turn('how do I stop it from loading them?', 'How do I stop ws from loading bufferutil and utf-8-validate?', ['ws/legacy-opt-in-for-performance'], 'followup',
        'Set the WS_NO_BUFFER_UTIL and WS_NO_UTF_8_VALIDATE environment variables.'),
    ]],
    ['debug-enable', [
      turn('How do I enable logging with the debug package?', 'How do I enable logging with the debug package?', ['debug/usage'], 'first',
        'Set the DEBUG environment variable to the names to enable, for instance DEBUG=worker:* node app.js.'),
      turn('how do I set that on Windows?', 'How do I set the DEBUG environment variable on Windows?', ['debug/cmd', 'debug/powershell-vs-code-default'], 'followup',
        'In cmd, set DEBUG=*; in PowerShell, $env:DEBUG = "*".'),
      turn('can I turn everything on except one namespace?', 'Can I enable every debug namespace except one?', ['debug/wildcards'], 'followup',
        'Yes: prefix the excluded name with a dash, as in DEBUG=*,-connect:*.'),
      turn('can I do it from code instead of an env var?', 'Can I enable debug namespaces from code instead of the DEBUG environment variable?', ['debug/set-dynamically'], 'followup',
        "Yes: debug.enable('test') enables namespaces at run time, and debug.disable() turns them off."),
    ]],
    ['debug-output', [
      turn('Where does debug write its output?', 'Where does debug write its output?', ['debug/output-streams'], 'first',
        'To stderr by default.'),
      turn('can I send it to stdout instead?', 'Can I make debug write to stdout instead of stderr?', ['debug/output-streams'], 'followup',
        'Yes: override the log method of the instance, for example with console.log.bind(console).'),
      turn('why are there no colors when I run it in a child process?', 'Why does debug show no colors when run in a child process?', ['debug/usage-in-child-processes'], 'followup',
        'stderr is piped there, so debug sees no TTY; pass DEBUG_COLORS=1 to the child.'),
      turn('and what is the +5ms at the end of each line?', 'What is the +5ms at the end of each debug output line?', ['debug/millisecond-diff'], 'followup',
        'The time spent between this debug() call and the previous one.'),
    ]],
    ['debug-browser', [
      turn('Does debug work in the browser?', 'Does debug work in the browser?', ['debug/browser-support'], 'first',
        'Yes: build a browser-ready script with browserify, or use a bundler.'),
      turn('how do I enable it there?', 'How do I enable debug in the browser?', ['debug/browser-support'], 'followup',
        "Set localStorage.debug, for example to 'worker:*', and refresh the page."),
      turn('how do I add my own format like %h for hex?', 'How do I add a custom formatter such as %h to debug?', ['debug/custom-formatters'], 'followup',
        'Add a function to debug.formatters, for example debug.formatters.h = (v) => v.toString("hex").'),
      turn('What formatters does debug support out of the box?', 'What formatters does debug support out of the box?', ['debug/formatters'], 'standalone',
        '%O and %o pretty-print objects, %s strings, %d numbers, %j JSON, %% a percent sign.'),
    ]],
  ],
};
