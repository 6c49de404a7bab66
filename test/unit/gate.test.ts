import { describe, expect, it } from 'vitest';
import { decide, determinesNext, referenceIndex, type GateReason } from '../../src/chat/rules/gate';
import { tokenize } from '../../src/chat/rules/tokenize';

type Row = [question: string, action: 'keep' | 'condense' | 'reply', reason: GateReason];

const FIRST_TURNS: Row[] = [
  ["what's the refund window?", 'keep', 'first-turn'],
  ['How do I reset my password?', 'keep', 'first-turn'],
  ['Does it work offline?', 'keep', 'first-turn'], // a first turn is never rewritten, pronoun or not
  ['นโยบายการคืนเงินเป็นอย่างไร', 'keep', 'first-turn'],
  ['退款需要多长时间？', 'keep', 'first-turn'],
  ['¿Cuánto tarda el reembolso?', 'keep', 'first-turn'],
  ['Wie lange dauert die Rückerstattung?', 'keep', 'first-turn'],
  ['hello', 'reply', 'smalltalk'],
];

const LATER_TURNS: Row[] = [
  // stand alone: kept as typed
  ['How long does shipping take to Canada?', 'keep', 'self-contained'],
  ['What does the Pro plan cost per year?', 'keep', 'self-contained'],
  ['Is it possible to pay yearly for the Plus plan?', 'keep', 'self-contained'],
  ["Is it true that refunds take five days?", 'keep', 'self-contained'],
  ['How long does it take to get a refund for a damaged pen?', 'keep', 'self-contained'],
  ['How much does it cost to install a heat pump at home?', 'keep', 'self-contained'],
  // the subject of a verb that takes no extraposed infinitive ("use X to Y") is a real pronoun
  ['What does it use to serialize values by default?', 'condense', 'dangling-pronoun'],
  ['Which plan includes shared team notebooks?', 'keep', 'self-contained'],
  ['Can I export my notes before deleting my account?', 'keep', 'self-contained'],
  ['I heard that refunds take a week, is that right?', 'keep', 'self-contained'], // "that" points inside the question
  ['What happens this year to the Free plan limits?', 'keep', 'self-contained'],
  ['If a parcel arrives late, can I return it?', 'keep', 'self-contained'],
  // a verb is no antecedent: not the infinitive after "to", not the word whose object the pronoun is
  ['So, what can I do to improve it and increase my levels?', 'condense', 'dangling-pronoun'],
  ['Once a parcel arrives, how do I return it?', 'keep', 'self-contained'],
  ['When customers cancel, do they lose their notes?', 'keep', 'self-contained'],
  ['How do I get the tokens as they are generated?', 'keep', 'self-contained'], // "as" opens a clause before "they are"
  ['How do I know when it has finished?', 'condense', 'dangling-pronoun'], // a clause, but no noun before it
  // before a main verb, a subordinator opens a clause too, with a determined noun phrase before it for an antecedent
  ['Can a task give up if it takes too long?', 'condense', 'implicit-topic'], // no dangling pronoun; only everyday words
  ['What should I send back if it fails?', 'condense', 'dangling-pronoun'], // "back" is no noun phrase
  // after a noun, "that" opens a relative clause, an auxiliary after it or not
  ['Which Lumen pens have a battery that can last a week?', 'keep', 'self-contained'],
  ['Will that work for Lumen pens?', 'condense', 'demonstrative'],
  // a relative clause never opens with a particle or preposition: "turn that off" has "that" as the verb's object
  ['How do I turn that off for one variable?', 'condense', 'demonstrative'],
  ['How do I set that on Windows?', 'condense', 'demonstrative'],
  // "after him": a subordinator right before a pronoun is a preposition, no clause boundary
  ['Who was the next Rookie of the Year for the team after him?', 'condense', 'dangling-pronoun'],
  ['Who won after he retired from the Reds?', 'condense', 'dangling-pronoun'],
  // "the same note" names its noun; "the same one" points back
  ['What happens when two devices edit the same note?', 'keep', 'self-contained'],
  ['Is it the same one?', 'condense', 'dangling-pronoun'],
  ['Can I get the same one in blue?', 'condense', 'which-one'],
  // a pronoun's antecedent inside the question must agree with it, and be a noun
  ['Besides inventive flavors, what made it successful?', 'condense', 'dangling-pronoun'],
  ['What else should I consider when installing it?', 'condense', 'dangling-pronoun'],
  ['Besides the price, what made it successful?', 'keep', 'self-contained'],
  ['Tell me about feijoada and its significance.', 'keep', 'self-contained'], // a possessive joined to a noun phrase belongs to it
  // idioms with a dummy "it": "make it into" (succeed), "what was it like during …" (the situation named after it)
  ['Did Bench make it into the Hall of Fame?', 'keep', 'self-contained'],
  ['What was it like during the time dinosaurs were on earth?', 'keep', 'self-contained'],
  ['What is it like?', 'condense', 'dangling-pronoun'],
  ['Can you make it cheaper?', 'condense', 'dangling-pronoun'],
  ['Tell me about its history and its significance.', 'condense', 'dangling-pronoun'],
  ['Is it easier to learn than Spanish?', 'condense', 'dangling-pronoun'], // the infinitive's object is what "than" compares
  ['Is it easier to learn Norwegian than Spanish?', 'keep', 'self-contained'],
  // a relation with one side unnamed
  ['What is the impact on modern biology?', 'condense', 'missing-argument'],
  ['What is the relationship to speciation?', 'condense', 'missing-argument'],
  ['What is the role of melatonin?', 'condense', 'missing-argument'],
  ['Why is Batman not a member?', 'condense', 'missing-argument'],
  ['What kind should I get if I am allergic?', 'condense', 'missing-argument'],
  // a version, variant or alternative of something never named …
  ['When did indoor versions become common?', 'condense', 'missing-argument'],
  ['What are the differences between the variants?', 'condense', 'missing-argument'],
  ['How do the freighter versions compare to each other?', 'condense', 'missing-argument'],
  ['What are the alternatives to avoid licensing issues?', 'condense', 'missing-argument'],
  // whether something helps or works, with what for never said …
  ['Does melatonin help?', 'condense', 'missing-argument'],
  ['I heard eating eggs might help.', 'condense', 'missing-argument'],
  ['Does freezing work?', 'condense', 'missing-argument'],
  // … and said, or how it works
  ['Does melatonin help with jet lag?', 'keep', 'self-contained'],
  ['Does freezing work on early tumors?', 'keep', 'self-contained'],
  ['How does the National Popular Vote Interstate Compact work?', 'keep', 'self-contained'],
  // an explanation, description or summary of something never named …
  ["That's too basic, I'd like a more scientific explanation.", 'condense', 'missing-argument'],
  ['Can you give me more details?', 'condense', 'missing-argument'],
  // … and of something named
  ['What is the definition of allegory?', 'keep', 'self-contained'],
  ['Can I get a longer explanation for one option?', 'keep', 'self-contained'],
  // a process noun whose object is never said …
  ['What are the short and long-term effects of usage on brain chemicals?', 'condense', 'missing-argument'],
  ['What is done with the whey after production?', 'condense', 'missing-argument'],
  ['How is testing done for contamination?', 'condense', 'missing-argument'],
  ['I’d like to stop. What are some treatment options?', 'condense', 'missing-argument'],
  // … and said: after it, after the compound it begins, or as the noun before it
  ['Tell me about the production of Parmesan cheese.', 'keep', 'self-contained'],
  ['What are the treatment options for breast cancer?', 'keep', 'self-contained'],
  ['Why did coffee production in Brazil fall?', 'keep', 'self-contained'],
  ['Does vitamin C improve iron absorption from spinach?', 'keep', 'self-contained'],
  // … and one whose something is named: after it, by a name before it, or as the head it modifies
  ['What are the versions of Node?', 'keep', 'self-contained'],
  ['Which Node versions does es-module-lexer support?', 'keep', 'self-contained'],
  ['Is there a TypeScript version?', 'keep', 'self-contained'],
  ['Are there good alternatives for vegans?', 'keep', 'self-contained'],
  ['What plan do I need for version history forever?', 'keep', 'self-contained'],
  // A stance or rule whose topic is never said (on what?), after an article, a possessive or a name.
  ['What is the NFL policy?', 'condense', 'missing-argument'],
  ["What were Ziegler's improvements?", 'condense', 'missing-argument'],
  ['What are the EU rules?', 'condense', 'missing-argument'],
  ["What is the French government's attitude?", 'condense', 'missing-argument'],
  ['What is the NFL policy on steroids?', 'keep', 'self-contained'],
  ["What is the French government's attitude toward alcohol in pregnancy?", 'keep', 'self-contained'],
  ['What are the GMO labeling rules in the EU?', 'keep', 'self-contained'],
  ['Does Lumen have a student discount policy?', 'keep', 'self-contained'], // the modifier names its topic
  // Responding or comparing last in the question, with nothing said to respond to or compare with.
  ['How did the international community respond?', 'condense', 'missing-argument'],
  ['How did the community respond to the protests?', 'keep', 'self-contained'],
  ['How does the use of rhyme in Biblical poetry compare?', 'condense', 'missing-argument'],
  ['How do the three periods of dinosaur evolution compare?', 'keep', 'self-contained'], // a plural subject, compared within itself
  ['How are anxiety and depression related?', 'keep', 'self-contained'],
  ['What is the best way to learn React?', 'keep', 'self-contained'], // a name, not the verb
  // "other" contrasts with something said before; not in "each other", "other than …", "in other words".
  ['What are other good sources of calcium?', 'condense', 'missing-argument'],
  ['How do plants and fungi help each other?', 'keep', 'self-contained'],
  ['Are there sources of calcium other than milk?', 'keep', 'self-contained'],
  ['In other words, is Bitcoin a currency?', 'keep', 'self-contained'],
  ['What is the impact of tourism on coral reefs?', 'keep', 'self-contained'],
  ['What is the role of melatonin in sleep?', 'keep', 'self-contained'],
  ['What is the difference between baby back ribs and spareribs?', 'keep', 'self-contained'],
  ['Which kind of dog breed sheds least?', 'keep', 'self-contained'],
  ['Is Batman a member of the Justice League?', 'keep', 'self-contained'],
  ['Is there a student discount on the Pro plan?', 'keep', 'self-contained'],
  ['What is the difference between Plus and Pro?', 'keep', 'self-contained'],
  ['Which plan is cheaper than Pro?', 'keep', 'self-contained'],
  // Only everyday words: read as continuing the conversation's topic (a known cost of this heuristic).
  ['Do plans include version history?', 'condense', 'implicit-topic'],
  ['What are the main benefits?', 'condense', 'implicit-topic'],
  ['How long does the process take?', 'condense', 'implicit-topic'],
  ['the plan that includes offline mode costs how much', 'keep', 'self-contained'],
  ['Why is sync slow on Android tablets?', 'keep', 'self-contained'],
  ['Also, is there a student discount on Pro?', 'keep', 'self-contained'],
  // existential "there", negated too, points at no place
  ["What does fromSource return when there isn't a source map comment?", 'keep', 'self-contained'],
  ['What does fromSource return when there is no source map comment?', 'keep', 'self-contained'],
  // "its own" is its clause's noun's
  ['My HTTP client sets its own agent. Is that agent proxied by global-agent?', 'keep', 'self-contained'],
  ['And what is the warranty period for Lumen pens?', 'keep', 'self-contained'],
  ['What is the Plus plan and why is it popular?', 'keep', 'self-contained'], // a coordinated question refers to the first
  ['What are the different types of Lumen pens?', 'keep', 'self-contained'], // attributive "different" compares nothing
  // "it" before a preposition's "to", as an object, after a verb, or misspelled "its": still points back
  ['What happens if it goes untreated?', 'condense', 'dangling-pronoun'],
  ['How is it related to the Free plan?', 'condense', 'dangling-pronoun'],
  ['How does it compare to the Pro plan?', 'condense', 'dangling-pronoun'],
  ['Why did the team want it to be free?', 'condense', 'dangling-pronoun'],
  ["Describe it's battery life.", 'condense', 'dangling-pronoun'],
  ['How is a container different?', 'condense', 'comparative'],
  // "which" standing alone chooses among what the conversation named, unless the question lists the choices
  ['Who knew? Which is more environmentally friendly?', 'condense', 'comparative'],
  ['Which is cheaper: concrete or asphalt?', 'keep', 'self-contained'],
  ['Which is the best programming language for beginners?', 'keep', 'self-contained'],
  // a wh-phrase whose clause is left to the conversation (sluicing)
  ['Cool! What kinds of innovations?', 'condense', 'missing-argument'],
  ['cool! what kinds of innovations', 'condense', 'missing-argument'],
  ['What kinds of innovations were made in cathedrals?', 'keep', 'self-contained'],
  ['What are popular ones in France?', 'condense', 'which-one'],
  // substitution and quantifier ellipsis: the noun is the conversation's, whatever else the question names
  ['How are literary devices used in Islamic ones?', 'condense', 'substitution'],
  ["I've heard some horror stories about air-source ones.", 'condense', 'substitution'],
  ['Is the static one slower?', 'condense', 'substitution'],
  ['What does a smart one do?', 'condense', 'substitution'],
  ['Can any go over 300 mph?', 'condense', 'substitution'],
  ['How many do I need to eat to get the recommended amount of iron?', 'condense', 'substitution'],
  ['Which worker gets a task when several are idle?', 'condense', 'substitution'],
  ['I heard that a few have been reported to be infected with the virus.', 'condense', 'substitution'],
  // … not a numeral, a quantifier before its noun or a partitive, nor "loved ones", "no one", "the one"
  ['Is there a way in tapable to listen to several hooks with one tap?', 'keep', 'self-contained'],
  ['What is a one week vegetarian diet for a marathon runner?', 'keep', 'self-contained'],
  ['Can any Tesla go over 300 mph?', 'keep', 'self-contained'],
  ['How many eggs do I need to eat for enough iron?', 'keep', 'self-contained'],
  ['Are many of the Tesla models electric?', 'keep', 'self-contained'],
  ['How do I support loved ones with Alzheimer disease?', 'keep', 'self-contained'],
  ['How do I keep at most 100 entries in lru-cache?', 'keep', 'self-contained'], // "at most": no subject of a verb
  ['How much does a Irish Wolfhound weigh?', 'keep', 'self-contained'],
  ['A heat pump seems suitable for my house. How much does it cost to install one?', 'keep', 'self-contained'],
  // topic switches: kept
  ['Now, how do I track my order?', 'keep', 'topic-switch'],
  ['Different question: how do I enable two-factor authentication?', 'keep', 'topic-switch'],
  ['ok, how do I delete my account?', 'keep', 'self-contained'], // a leading acknowledgement is skipped
  ['By the way, do you ship to Norway?', 'keep', 'topic-switch'],
  ['Moving on: what are the delivery times for express shipping?', 'keep', 'topic-switch'],
  ['Thanks! How long do refunds take to reach my card?', 'keep', 'self-contained'],
  // small talk: reply without retrieval
  ['thanks', 'reply', 'smalltalk'],
  ['Thank you so much!', 'reply', 'smalltalk'],
  ['ok', 'reply', 'smalltalk'],
  ['Sure', 'reply', 'smalltalk'],
  ['Hello', 'reply', 'smalltalk'],
  ['great, got it', 'reply', 'smalltalk'],
  ['👍', 'reply', 'smalltalk'],
  ['bye', 'reply', 'smalltalk'],
  // dangling pronouns
  ['How long does it take?', 'condense', 'dangling-pronoun'],
  ['Does it work offline?', 'condense', 'dangling-pronoun'],
  ['What are its side effects?', 'condense', 'dangling-pronoun'],
  ['Can they be recycled?', 'condense', 'dangling-pronoun'],
  ['How do I cancel them?', 'condense', 'dangling-pronoun'],
  ['What is their return policy?', 'condense', 'dangling-pronoun'],
  ['When was he born?', 'condense', 'dangling-pronoun'],
  ['What did she study?', 'condense', 'dangling-pronoun'],
  ['Once it breaks out, how likely is it to spread?', 'condense', 'dangling-pronoun'],
  // demonstratives
  ['and how long does that refund take?', 'condense', 'demonstrative'],
  ['Is that free?', 'condense', 'demonstrative'],
  ['Does this include offline mode?', 'condense', 'demonstrative'],
  ['How much do these cost?', 'condense', 'demonstrative'],
  ['Are those covered by the warranty?', 'condense', 'demonstrative'],
  ['Which of these plans has admin controls?', 'condense', 'demonstrative'],
  // ellipsis
  ['what about damaged items?', 'condense', 'ellipsis'],
  ['What about in Canada?', 'condense', 'ellipsis'],
  ['How about the Pro plan?', 'condense', 'ellipsis'],
  ['and for express shipping?', 'condense', 'ellipsis'],
  ['Same for the Plus plan?', 'condense', 'ellipsis'],
  ['why?', 'condense', 'ellipsis'],
  ['Tell me more', 'condense', 'ellipsis'],
  ['anything else?', 'condense', 'ellipsis'],
  ['how so?', 'condense', 'ellipsis'],
  ['and the price?', 'condense', 'ellipsis'],
  // which one, comparatives, fragments
  ['Which one is better?', 'condense', 'which-one'],
  ['What about the other one?', 'condense', 'ellipsis'],
  ['and the latter?', 'condense', 'which-one'],
  ['The former, please explain it', 'condense', 'which-one'],
  // "the other" in a fixed expression points back at nothing; "one or the other" does
  ['can I run two minifiers on the same file one after the other?', 'keep', 'self-contained'],
  ['Python is easy to learn; on the other hand, is Rust faster to run?', 'keep', 'self-contained'],
  ['Can I pick one or the other?', 'condense', 'which-one'],
  ['cheaper?', 'condense', 'comparative'],
  ['which is better?', 'condense', 'comparative'],
  ['Is there anything faster?', 'condense', 'comparative'],
  // a superlative whose noun is left out: what it ranks is the conversation's
  ['What is the largest ever to have lived on Earth?', 'condense', 'comparative'],
  ['What is the best in my morning latte?', 'condense', 'comparative'],
  ["What's the most popular in Japan?", 'condense', 'comparative'],
  ['Which is the cheapest right now?', 'condense', 'comparative'],
  // … and with its noun: after it, in the subject, or the set after "of"; a noun in -est is no superlative
  ['What is the largest shark ever caught off Florida?', 'keep', 'self-contained'],
  ['Is Everest the highest in the world?', 'keep', 'self-contained'],
  ['Which language would be the easiest to learn for an English speaker?', 'keep', 'self-contained'],
  ['What is the largest of the Galapagos islands?', 'keep', 'self-contained'],
  ['What is the interest on a Roth IRA?', 'keep', 'self-contained'],
  ['What is the priest for at a Catholic wedding?', 'keep', 'self-contained'],
  ['price?', 'condense', 'fragment'],
  ['In Canada?', 'condense', 'fragment'],
  ['for the Pro plan?', 'condense', 'fragment'],
  ['how much?', 'condense', 'fragment'],
  ['Where?', 'condense', 'fragment'],
  // other scripts after the first turn: kept, these rules cannot judge them
  ['และสินค้าที่เสียหายล่ะ', 'keep', 'other-script'],
  ['那损坏的物品呢？', 'keep', 'other-script'],
  // Latin-script languages other than English hold none of the English references: kept, searched as typed, never rewritten
  ['Und was ist mit dem Versand?', 'keep', 'self-contained'],
  ['Et ça coûte combien ?', 'keep', 'self-contained'],
  ['¿Y los artículos dañados?', 'keep', 'self-contained'],
];

describe('gate', () => {
  it(`has at least 60 cases`, () => expect(FIRST_TURNS.length + LATER_TURNS.length).toBeGreaterThanOrEqual(60));

  it.each(FIRST_TURNS)('first turn: %s → %s (%s)', (question, action, reason) => {
    expect(decide(question, false)).toMatchObject({ action, reason });
  });

  it.each(LATER_TURNS)('later turn: %s → %s (%s)', (question, action, reason) => {
    expect(decide(question, true)).toMatchObject({ action, reason });
  });

  it('is deterministic and reports its evidence', () => {
    expect(decide('Does it work offline?', true)).toEqual({ action: 'condense', reason: 'dangling-pronoun', evidence: ['it'] });
    expect(decide('Does it work offline?', true)).toEqual(decide('Does it work offline?', true));
  });

  it('tells a demonstrative that determines its noun from one standing alone, and finds the reference the gate flagged', () => {
    const determines = (text: string, word: string) => {
      const tokens = tokenize(text);
      return determinesNext(text, tokens, referenceIndex(text, tokens, word));
    };
    expect(determines('and how long does that refund take?', 'that')).toBe(true);
    expect(determines('Is that plan available in Canada?', 'that')).toBe(true);
    expect(determines('Could you expand on some of these methods?', 'these')).toBe(true);
    expect(determines('what is that option?', 'that')).toBe(true);
    // A predicate adjective closing a question opened by a copula, an adverb, a verb after do-support.
    expect(determines('is that safe if the other origin is untrusted?', 'that')).toBe(false);
    expect(determines('Is this fast?', 'this')).toBe(false);
    expect(determines('can I use -v for that instead?', 'that')).toBe(false);
    expect(determines('Does this slow the cache down?', 'this')).toBe(false);
    expect(determines('how do I fix that?', 'that')).toBe(false);
    expect(determines('that, or the other one?', 'that')).toBe(false);
    // The "that" the gate flagged, not a relative one before it; the first occurrence where none is flagged.
    const relative = 'can I insert text that moves along when that range is moved?';
    expect(tokenize(relative)[referenceIndex(relative, tokenize(relative), 'that')]?.index).toBe(relative.indexOf('that range'));
    const expletive = 'How much does it cost for someone to fix it?';
    expect(referenceIndex(expletive, tokenize(expletive), 'it')).toBe(tokenize(expletive).length - 1);
    expect(referenceIndex('no reference here', tokenize('no reference here'), 'that')).toBe(-1);
  });
});
