/**
 * The second README set (build/eval-readmes-2/): DOMPurify, mammoth and
 * loglevel, whose READMEs are in node_modules through threadline's own
 * dependencies and their tools. Ten conversations written by hand on
 * 2026-11-24 (session 18) as a developer would ask, with rewrites and gold
 * sections, after the reading context was fixed and before anything ran on
 * them: held out from every rule and weight chosen up to then.
 */
import { turn, type ReadmeSet } from './readme-corpus';

export const SECOND: ReadmeSet = {
  folder: 'eval-readmes-2',
  prefix: 'readmes2',
  packages: [
    ['dompurify', 'dompurify', 'DOMPurify'],
    ['mammoth', 'mammoth', 'mammoth'],
    ['loglevel', 'loglevel', 'loglevel'],
  ],
  conversations: [
    ['dompurify-basics', [
      turn('What does DOMPurify do?', 'What does DOMPurify do?', ['dompurify/what-does-it-do'], 'first',
        'It sanitizes HTML and prevents XSS: give it a string of dirty HTML and it returns clean HTML, with everything dangerous stripped out.'),
      turn('how do I use it on my page?', 'How do I use DOMPurify on my web page?', ['dompurify/how-do-i-use-it', 'dompurify/using-the-minified-and-tested-production-version-source-map-available'], 'followup',
        'Include purify.min.js with a script tag, then call DOMPurify.sanitize(dirty) and use the string it returns.'),
      turn('can I run it in node too?', 'Can I run DOMPurify in Node.js?', ['dompurify/running-dompurify-on-the-server'], 'followup',
        'Yes, but it needs a DOM: use a recent jsdom and create DOMPurify with its window.'),
      turn('what if I change the HTML after sanitizing it?', 'What happens if I modify HTML after sanitizing it with DOMPurify?', ['dompurify/is-there-any-foot-gun-potential'], 'followup',
        'You may void the sanitization: modifying sanitized markup, or handing it to a library that rewrites it, can bring the danger back.'),
    ]],
    ['dompurify-config', [
      turn('How can I allow only a few tags with DOMPurify?', 'How can I allow only a few tags with DOMPurify?', ['dompurify/control-our-allow-lists-and-block-lists'], 'first',
        "Pass ALLOWED_TAGS (and ALLOWED_ATTR) to sanitize, for instance { ALLOWED_TAGS: ['b'] }."),
      turn('and what about links with data URIs?', 'How do I allow data URIs in links with DOMPurify?', ['dompurify/control-behavior-relating-to-uri-values'], 'followup',
        "ADD_DATA_URI_TAGS extends the elements that may use data URIs, for instance ['a', 'area']."),
      turn('do I have to pass the same options every time?', 'Do I have to pass the same configuration to DOMPurify.sanitize every time?', ['dompurify/persistent-configuration'], 'followup',
        'No: DOMPurify.setConfig keeps a configuration until the next setConfig or clearConfig.'),
      turn('can I get a DOM node back instead of a string?', 'Can DOMPurify.sanitize return a DOM node instead of a string?', ['dompurify/influence-the-return-type'], 'followup',
        'Yes: RETURN_DOM gives an HTMLBodyElement, RETURN_DOM_FRAGMENT a DocumentFragment.'),
    ]],
    ['dompurify-hooks', [
      turn('How do hooks work in DOMPurify?', 'How do hooks work in DOMPurify?', ['dompurify/hooks'], 'first',
        'Attach functions with DOMPurify.addHook to points such as beforeSanitizeElements or uponSanitizeAttribute; each gets the current node and data.'),
      turn('can I call sanitize from inside one?', 'Can I call DOMPurify.sanitize from inside a hook?', ['dompurify/a-note-on-calling-sanitize-from-a-hook'], 'followup',
        'No: sanitize is not re-entrant, so do not call it from a hook or a configuration callback.'),
      turn('what happens if my hook removes the node?', 'What happens if a DOMPurify hook removes the current node?', ['dompurify/hook-behavior-worth-knowing'], 'followup',
        'Detaching the node is supported: DOMPurify notices and moves on to the next node.'),
    ]],
    ['dompurify-browsers', [
      turn('Does DOMPurify work in Internet Explorer?', 'Does DOMPurify work in Internet Explorer?', ['dompurify/what-about-legacy-browsers-like-internet-explorer'], 'first',
        'In legacy browsers it does nothing and returns the string it was given.'),
      turn('how do I check if it is supported?', 'How do I check whether DOMPurify is supported in the browser?', ['dompurify/what-about-legacy-browsers-like-internet-explorer'], 'followup',
        'Read DOMPurify.isSupported.'),
      turn('does it support trusted types?', 'Does DOMPurify support Trusted Types?', ['dompurify/what-about-dompurify-and-trusted-types'], 'followup',
        'Yes, since 1.0.9; RETURN_TRUSTED_TYPE controls whether sanitize returns a TrustedHTML.'),
      turn('What should I do if I find a security bug in DOMPurify?', 'What should I do if I find a security bug in DOMPurify?', ['dompurify/what-if-i-find-a-security-bug'], 'standalone',
        'Email the maintainers right away; you may qualify for a bug bounty.'),
    ]],
    ['mammoth-basics', [
      turn('How do I convert a docx file to HTML with mammoth?', 'How do I convert a docx file to HTML with mammoth?', ['mammoth/basic-conversion'], 'first',
        'Call mammoth.convertToHtml({ path }) and read result.value; result.messages holds warnings.'),
      turn('can I do it from the command line?', 'Can I convert a docx file to HTML with mammoth from the command line?', ['mammoth/cli'], 'followup',
        'Yes: mammoth document.docx output.html.'),
      turn('where do the images go?', 'Where does the mammoth command line put the images of a docx file?', ['mammoth/images'], 'followup',
        'Inline in the HTML by default; with --output-dir they are written to separate files.'),
      turn('and can I get markdown instead?', 'Can mammoth convert a docx file to Markdown?', ['mammoth/markdown', 'mammoth/mammoth-converttomarkdown-input-options'], 'followup',
        'Markdown output is deprecated: convert to HTML and use another library for Markdown.'),
    ]],
    ['mammoth-styles', [
      turn('How do I map Word styles to HTML elements in mammoth?', 'How do I map Word styles to HTML elements in mammoth?', ['mammoth/custom-style-map', 'mammoth/writing-style-maps'], 'first',
        "Pass a styleMap to convertToHtml, with lines such as \"p[style-name='Section Title'] => h1:fresh\"."),
      turn('how do I keep underlined text?', 'How do I keep underlined text when converting a docx file with mammoth?', ['mammoth/underline', 'mammoth/document-element-matchers-underline'], 'followup',
        'Underlining is ignored by default; add a style mapping for u, such as "u => em".'),
      turn('and comments?', 'How do I include the comments of a docx file in the HTML with mammoth?', ['mammoth/comments'], 'followup',
        'Add a style mapping for comment-reference, such as "comment-reference => sup"; the comments are appended at the end.'),
      turn('how do I ignore some paragraphs completely?', 'How do I ignore some paragraphs completely in a mammoth style map?', ['mammoth/ignoring-document-elements'], 'followup',
        "Map them to !, for instance p[style-name='Comment'] => !."),
    ]],
    ['mammoth-safety', [
      turn('Is it safe to convert untrusted docx files with mammoth?', 'Is it safe to convert untrusted docx files with mammoth?', ['mammoth/security'], 'first',
        'Not by itself: mammoth does no sanitisation, so a document can carry javascript: links; sanitise the HTML before you embed it.'),
      turn('how do I see the warnings it produced?', 'How do I see the warnings mammoth produced during a conversion?', ['mammoth/messages', 'mammoth/basic-conversion'], 'followup',
        'Read result.messages: each has a type such as "warning" and a message.'),
      turn('can I just get the plain text?', 'Can mammoth extract just the plain text of a docx file?', ['mammoth/mammoth-extractrawtext-input'], 'followup',
        'Yes: mammoth.extractRawText ignores formatting and ends each paragraph with two newlines.'),
    ]],
    ['loglevel-setup', [
      turn('How do I install loglevel?', 'How do I install loglevel?', ['loglevel/downloading-loglevel'], 'first',
        'npm install loglevel (or Bower, or download the file).'),
      turn('how do I import it as an ES module?', 'How do I import loglevel as an ES6 module?', ['loglevel/as-an-es6-module'], 'followup',
        "It is a UMD module; import log from 'loglevel' works with most loaders, or import * as log."),
      turn('does it come with typescript types?', 'Does loglevel include TypeScript type definitions?', ['loglevel/typescript'], 'followup',
        'Yes, it includes its own type definitions.'),
      turn('what if another library also defines a global log?', 'What if another library defines a global log as loglevel does?', ['loglevel/with-noconflict'], 'followup',
        'Call log.noConflict() right after loading it and bind the returned object to another name.'),
    ]],
    ['loglevel-levels', [
      turn('How do I hide debug messages with loglevel?', 'How do I hide debug messages with loglevel?', ['loglevel/log-setlevel-level-persist'], 'first',
        'log.setLevel("info") disables everything below info.'),
      turn('will that setting survive a page reload?', 'Will the loglevel level I set survive a page reload?', ['loglevel/log-setlevel-level-persist'], 'followup',
        'By default it is persisted in localStorage or a cookie; pass false as the second argument not to persist it.'),
      turn('how do I set a default without overriding what the user picked?', 'How do I set a default loglevel level without overriding a level the user persisted?', ['loglevel/log-setdefaultlevel-level'], 'followup',
        'Use log.setDefaultLevel(level): it applies only when no level was persisted.'),
      turn('and how do I go back to the default later?', 'How do I reset the loglevel level back to the default?', ['loglevel/log-resetlevel'], 'followup',
        "log.resetLevel() goes back to the logger's default level and clears the persisted one."),
    ]],
    ['loglevel-loggers', [
      turn('Can I have a separate logger for each module with loglevel?', 'Can I have a separate logger for each module with loglevel?', ['loglevel/log-getlogger-loggername'], 'first',
        'Yes: log.getLogger(name) returns a logger whose level is set independently.'),
      turn('how do I list all of them?', 'How do I list all the loggers created with loglevel getLogger?', ['loglevel/log-getloggers'], 'followup',
        'log.getLoggers() returns them keyed by name.'),
      turn('can I add a prefix to every message?', 'Can I add a prefix to every loglevel message?', ['loglevel/existing-plugins', 'loglevel/writing-plugins'], 'followup',
        'Use the loglevel-plugin-prefix plugin, or write a plugin that wraps methodFactory.'),
      turn('Does loglevel keep line numbers in the console?', 'Does loglevel keep line numbers in the console?', ['loglevel/convenient'], 'standalone',
        'Yes: it calls the console methods directly, so the browser shows where the log call was made.'),
    ]],
  ],
};
