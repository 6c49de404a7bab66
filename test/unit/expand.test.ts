import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../scripts/eval/evaluate';
import { expansionTerms, rankTopics, resolveAndExpand, resolveHistory, withNames } from '../../src/chat/expand';
import { gateBySpecificity, splitPreamble } from '../../src/chat/specific-gate';
import { lastQuestionClause } from '../../src/chat/rules/rules-condenser';
import { candidatePhrases, subjectPhrases } from '../../src/chat/rules/topics';
import { sentencesOf } from '../../src/chat/rules/sentences';
import { commonestRank, generalSpecificity, singularForms, specificityFrom, zipfSpecificity, type Specificity } from '../../src/chat/specificity';

/** A scripted specificity (a fake of the index's statistics): listed words are specific, others not. */
const specific = (words: Record<string, number>): Specificity => (w) => words[w.toLowerCase()] ?? 0.1;

describe('specificity', () => {
  it('is importance over the index reference, capped by general English and at 1', () => {
    const s = specificityFrom({ terms: [{ word: 'warranty', term: 'warranti', importance: 4 }, { word: 'time', term: 'time', importance: 4 }, { word: 'zebra', term: 'zebra', importance: 0 }], reference: 2, chunks: 10 });
    expect(s('warranty')).toBe(generalSpecificity('warranty'));
    expect(s('time')).toBeLessThan(0.3); // an everyday word, rare in a small index, stays everyday
    expect(s('zebra')).toBe(0);
    expect(s('unseen')).toBe(0);
  });

  it('the Zipf prior puts everyday words under 0.5 and rare ones over it', () => {
    expect(zipfSpecificity(100)).toBeLessThan(0.3);
    expect(zipfSpecificity(3_000)).toBeLessThan(0.5);
    expect(zipfSpecificity(30_000)).toBeGreaterThan(0.5);
    expect(generalSpecificity('people')).toBeLessThan(0.2);
    expect(generalSpecificity('zymurgy')).toBe(1); // beyond the list: no evidence, the index decides
  });

  it('a plural is as specific as its singular: the commoner form decides', () => {
    expect(singularForms('advantages')).toContain('advantage');
    expect(singularForms('batteries')).toContain('battery');
    expect(singularForms('boxes')).toContain('box');
    expect(singularForms('glass')).toEqual(['glass']);
    expect(commonestRank('advantages', (w) => ({ advantages: 9_000, advantage: 2_000 } as Record<string, number>)[w])).toBe(2_000);
    expect(generalSpecificity('advantages')).toBe(generalSpecificity('advantage'));
  });

  it('names written capitalized inside a sentence are specific whatever their frequency', () => {
    const s = withNames(() => 0.2, ['How did Michael Jackson die?']);
    expect(s('jackson')).toBeGreaterThanOrEqual(0.5);
    expect(s('how')).toBe(0.2); // sentence-initial capital is no name
  });
});

describe('resolve, then expand', () => {
  const s = specific({ garage: 0.8, door: 0.5, opener: 0.9, smart: 0.4, hacked: 0.7, gmo: 1, labeling: 0.8, food: 0.3, eu: 0.9 });

  it('keeps a turn that names something specific in this corpus; condenses one that does not', () => {
    expect(gateBySpecificity('How could smart openers be hacked?', true, s).action).toBe('keep');
    // Four or more topic words describe a subject of their own, everyday as each may be.
    expect(gateBySpecificity('Tell me about the privacy issues in social networks.', true, s)).toMatchObject({ action: 'keep', reason: 'self-contained' });
    expect(gateBySpecificity('What are the privacy issues?', true, s)).toMatchObject({ action: 'condense', reason: 'implicit-topic' });
    expect(gateBySpecificity('What are the pros and cons?', true, s)).toMatchObject({ action: 'condense', reason: 'implicit-topic' });
    expect(gateBySpecificity('What are the pros and cons?', false, s)).toMatchObject({ action: 'keep', reason: 'first-turn' });
    expect(gateBySpecificity('and in the EU?', true, s).action).toBe('condense'); // a fragment needs the history whatever it names
  });

  it('a relation that names both its sides, specific enough together, is kept; everyday sides still need the conversation', () => {
    const sp = specific({ anxiety: 0.48, depression: 0.44, book: 0.29, movies: 0.33 });
    expect(gateBySpecificity('How are anxiety and depression related?', true, sp)).toMatchObject({ action: 'keep', reason: 'self-contained', evidence: ['anxiety and depression'] });
    expect(gateBySpecificity('What is the difference between anxiety and depression?', true, sp).action).toBe('keep');
    expect(gateBySpecificity('What are the differences between the book and movies?', true, sp)).toMatchObject({ action: 'condense', reason: 'implicit-topic' });
    // No relation asked: the two words alone are no subject.
    expect(gateBySpecificity('Are anxiety and depression common?', true, sp).action).toBe('condense');
  });

  it('a definite noun of everyday words that nothing in the question identifies bridges to the conversation, whatever else the question names', () => {
    const sp = specific({ spider: 0.9, avengers: 0.9, phenylalanine: 1, tyrosine: 1, driveway: 0.7, solar: 0.6, batteries: 0.45, unique: 0.35, rome: 0.8, spy: 0.8, museums: 0.55, pros: 0.6, cons: 0.6, movie: 0.3, cost: 0.2, power: 0.2, poster: 0.2, fan: 0.3, pop: 0.4, bands: 0.4, murals: 0.45, painted: 0.4 });
    // Two words that add up to a named phrase ("batteries unique") kept this question before.
    expect(gateBySpecificity('What makes the batteries unique?', true, sp)).toMatchObject({ action: 'condense', reason: 'bridging' });
    // Spider-Man is named, and specific: before, that kept the question; "the team" still needs the conversation.
    expect(gateBySpecificity('What is the relationship of Spider-Man to the team?', true, sp)).toMatchObject({ action: 'condense', reason: 'bridging', evidence: ['team'] });
    // A number after "the" presupposes a set the conversation introduced ("the three periods"); "of" after it still anchors it.
    expect(gateBySpecificity('How did Rome change across the three periods?', true, sp)).toMatchObject({ action: 'condense', reason: 'bridging', evidence: ['periods'] });
    expect(gateBySpecificity('What are the three branches of the Spy Museum?', true, sp).action).toBe('keep');
    // Identified in the question: anchored by what follows it, a name, a specific word, unique by itself or by its own description.
    for (const own of ['What is the cost of solar power?', 'Is the Spy Museum free?', 'How does the phenylalanine convert to tyrosine?', 'Which type of driveway is better for the environment?',
      'What is the best time to visit Rome?', 'Which museums are the most popular?', 'What are the pros and cons of solar power?', 'Who did the Avengers fight in the last movie?',
      'Did Rome win the main event?', 'Is the phenylalanine safe?', 'Describe some of the influential pop bands.', 'Did the famous pop bands sell out?']) {
      expect(gateBySpecificity(own, true, sp), own).toMatchObject({ action: 'keep' });
    }
    // Named earlier in the same question, or by a statement before it: its antecedent is in the message.
    expect(gateBySpecificity('If a Spider-Man fan buys a poster, is the poster signed?', true, sp).action).toBe('keep');
    expect(gateBySpecificity('I read about Spider-Man and the Avengers. What is the relationship to the team?', true, sp, 'What is the relationship to the team?').reason).not.toBe('bridging');
    // A prepositional idiom's definite noun names no thing ("out of the box": as shipped); one outside the idiom still bridges.
    const svg = specific({ ...Object.fromEntries(Object.entries(sp)), svg: 0.9, css: 0.8, minify: 0.7, embedded: 0.4, box: 0.3, hood: 0.3, fly: 0.3, resize: 0.6, images: 0.3 });
    for (const own of ['Does minify handle SVG embedded in CSS out of the box?', 'Can I resize images on the fly?', 'What does minify do under the hood with SVG?']) {
      expect(gateBySpecificity(own, true, svg), own).toMatchObject({ action: 'keep' });
    }
    expect(gateBySpecificity('Can I put SVG in the box?', true, svg)).toMatchObject({ action: 'condense', reason: 'bridging', evidence: ['box'] });
    // A turn that names nothing is condensed as before (implicit-topic), not re-labelled; a first turn is never condensed.
    expect(gateBySpecificity('What are the privacy issues?', true, sp)).toMatchObject({ action: 'condense', reason: 'implicit-topic' });
    expect(gateBySpecificity('What makes the batteries unique?', false, sp)).toMatchObject({ action: 'keep', reason: 'first-turn' });
  });

  it('a name of everyday words and numbers (“the Museum of Art”, “the 321 method”) names one thing only in a setting, which the conversation gives', () => {
    // Names count as specific (withNames does so for capitalized words), so without this rule each of these is kept.
    const sp = specific({ museum: 0.5, art: 0.5, model: 0.5, first: 0.5, lady: 0.5, sea: 0.5, peoples: 0.5, method: 0.3, games: 0.3, milgram: 0.9, experiment: 0.4, a380: 0.9, national: 0.5, air: 0.5, space: 0.5, black: 0.5, lives: 0.5, matter: 0.5, movement: 0.3, covid: 0.9, vaccine: 0.6, collections: 0.4, special: 0.3, '321': 0.9, '2002': 0.9, '3': 0.9, unique: 0.3, impact: 0.3, pay: 0.2, produced: 0.2, motivates: 0.3, ann: 0.9, arbor: 0.9, college: 0.5, free: 0.3 });
    for (const [text, name] of [['Does the Museum of Art have any special collections?', 'Museum of Art'], ['Describe the 321 method.', '321 method'], ['What is unique about the Model 3?', 'Model 3'],
      ['What was the impact of the 2002 games?', '2002 games'], ['Do we pay the First Lady?', 'First Lady'], ['Who were the Sea Peoples?', 'Sea Peoples']] as const) {
      expect(gateBySpecificity(text, true, sp), text).toMatchObject({ action: 'condense', reason: 'bridging', evidence: [name] });
    }
    // A word of its own, a code of letters and digits, or a name long enough to spell out its setting: kept.
    for (const text of ['What happened in the Milgram experiment?', 'Why did the A380 stop being produced?', 'Why is the National Air and Space Museum important?',
      'What else motivates the Black Lives Matter movement?', 'How does the COVID-19 vaccine work?', 'Is the College free?']) {
      expect(gateBySpecificity(text, true, sp), text).toMatchObject({ action: 'keep' });
    }
    // The conversation's topic is searched as context, the question as typed ranked too.
    const out = resolveAndExpand('Does the Museum of Art have any special collections?', [{ user: 'What is there to see in Ann Arbor?', assistant: '' }], sp);
    expect(out.question).toBe('Does the Museum of Art have any special collections (Ann Arbor)?');
    expect(out.query).toMatchObject({ hedge: 'Does the Museum of Art have any special collections?', hedgeWeight: 0.3 });
    expect(out.reason).toMatch(/^read “the Museum of Art” as the conversation's; added the topic “Ann Arbor” \(as context\)/);
    // A first turn is never condensed.
    expect(gateBySpecificity('Describe the 321 method.', false, sp).action).toBe('keep');
  });

  it('an interjection names nothing, however rare in the index: "Wow! What will happen?" needs the conversation', () => {
    const sp = specific({ wow: 0.9, oh: 0.9, security: 0.8, social: 0.6 });
    expect(gateBySpecificity('Wow! What will happen?', true, sp, 'What will happen?').action).toBe('condense');
    const history = [{ user: 'Oh, what happens to social security?', assistant: '' }];
    const out = resolveAndExpand('Wow! What will happen?', history, sp);
    expect(out.question).toMatch(/social security/);
    // Nor is one a word of the conversation to search.
    expect(out.query.terms.map((t) => t.term)).not.toContain('oh');
    expect(resolveAndExpand('Can it be fixed?', [...history, { user: 'Wow! What will happen?', assistant: '' }], sp).query.terms.map((t) => t.term)).not.toContain('wow');
  });

  it('a bridging definite is searched with the conversation’s topic as context, and hedged with the question as typed', () => {
    const sp = specific({ spider: 0.9, avengers: 0.9, marvel: 0.9 });
    const history = [{ user: 'Who are the Avengers?', assistant: 'A team of superheroes.' }];
    const out = resolveAndExpand('What is the relationship of Spider-Man to the team?', history, sp);
    expect(out.decision.reason).toBe('bridging');
    // The question as shown names the topic it was read with; the topic is searched at its turn's weight, below the typed words.
    expect(out.question).toBe('What is the relationship of Spider-Man to the team (Avengers)?');
    expect(out.query.text).toBe('What is the relationship of Spider-Man to the team?');
    expect(out.query.terms.find((t) => t.term === 'avengers')?.weight).toBeLessThan(1);
    expect(out.query.terms.find((t) => t.term === 'avengers')?.weight).toBeGreaterThan(0);
    // The topic is a guess: the question as typed is ranked too, below it.
    expect(out.query).toMatchObject({ hedge: 'What is the relationship of Spider-Man to the team?', hedgeWeight: 0.3 });
    expect(out.reason).toMatch(/^read “the team” as the conversation's; added the topic “Avengers” \(as context\); hedged with the question as typed at 0.3$/);
  });

  it('ranks the user’s specific phrases over recent everyday ones; the first turn keeps a floor', () => {
    const history = [{ user: 'My garage door opener stopped working.', assistant: '' }, { user: 'What does a smart one do?', assistant: '' }];
    expect(rankTopics(history, s)[0]?.phrase).toBe('garage door opener');
  });

  it('resolves a pronoun to the topic and adds history words below weight 1, recent and first turns heavier', () => {
    const history = [{ user: 'Tell me about GMO food labeling', assistant: 'It is required in the EU.' }, { user: 'What are the EU rules?', assistant: '' }];
    const out = resolveAndExpand('How are they enforced?', history, s);
    expect(out.decision.action).toBe('condense');
    expect(out.question).toMatch(/GMO food labeling|EU rules/);
    for (const t of out.query.terms) expect(t.weight).toBeLessThan(1);
    const weights = Object.fromEntries(out.query.terms.map((t) => [t.term, t.weight]));
    expect(weights.gmo ?? weights.labeling).toBe(0.5);
  });

  it('HQE\'s history words are the user\'s, never the assistant\'s, nor words already in the question', () => {
    const terms = expansionTerms('what about labeling?', [{ user: 'GMO labeling', assistant: 'garage garage garage' }], s);
    expect(terms.map((t) => t.term)).toEqual(['gmo']);
  });

  it('keeps a standalone turn exactly as typed, with no terms', () => {
    const out = resolveAndExpand('How could a garage door opener be hacked?', [{ user: 'GMO labeling', assistant: '' }], s);
    expect(out).toMatchObject({ question: 'How could a garage door opener be hacked?', query: { text: 'How could a garage door opener be hacked?', terms: [] } });
  });

  it('“It sounds like …” before a question: the pronoun in the question resolves to what the preamble named', () => {
    expect(splitPreamble('It sounds like the Tesla is fast. What makes its engine unique?')).toEqual({ preamble: 'It sounds like the Tesla is fast.', ask: 'What makes its engine unique?' });
    expect(splitPreamble('Why?')).toEqual({ preamble: '', ask: 'Why?' });
    const out = resolveAndExpand('It sounds like the Tesla is fast. What makes its engine unique?', [{ user: 'Which electric car is fastest?', assistant: '' }], specific({ tesla: 0.9, electric: 0.6, engine: 0.4 }));
    expect(out.question).toBe("It sounds like the Tesla is fast. What makes Tesla's engine unique?");
  });

  it('an ellipsis splices into the previous question’s last clause, without acknowledgements or parentheticals', () => {
    expect(lastQuestionClause('Thanks. What is the refund window (orders)?')).toBe('What is the refund window');
    const history = [{ user: 'Great, thanks! How long do I have to return something?', assistant: '' }];
    expect(resolveAndExpand('what about damaged items?', history, specific({ damaged: 0.7, return: 0.6 })).question).toBe('How long do I have to return something, for damaged items?');
    // A fragment after a fragment replaces it; a bare follow-up keeps the whole previous question.
    const more = [...history, { user: 'what about damaged items?', assistant: '' }];
    expect(resolveAndExpand('what about opened ones?', more, specific({ damaged: 0.7, opened: 0.7 })).question).toBe('How long do I have to return something, for opened ones?');
    expect(resolveAndExpand('why?', more, specific({ damaged: 0.7 })).question).toBe('why? (How long do I have to return something, for damaged items)');
  });

  it('a question of its own after “and” is not spliced', () => {
    const history = [{ user: 'how long do I have to return something?', assistant: '' }, { user: 'what about damaged items?', assistant: '' }];
    const out = resolveAndExpand('and how long until I get my money back?', history, specific({ damaged: 0.7, money: 0.3 }));
    expect(out.question).not.toMatch(/return something.*damaged items.*money/);
    expect(out.question).toMatch(/^and how long until I get my money back/);
    expect(out.query.text).toBe('and how long until I get my money back?');
    expect(out.query.terms.map((t) => t.term)).toEqual(expect.arrayContaining(['damaged']));
  });

  it('a bare question after a statement that names something asks about that statement: kept as typed', () => {
    const sp = specific({ oat: 0.9, vegan: 0.8, milk: 0.4, wine: 0.8, pregnant: 0.7, cookies: 0.7 });
    const history = [{ user: 'Which vegan milk is healthiest?', assistant: '' }];
    for (const text of ['Oat seems popular now. Why?', 'I heard pregnant women drink wine with dinner. Is that true?']) {
      expect(resolveAndExpand(text, history, sp)).toMatchObject({ question: text, query: { text, terms: [] }, decision: { action: 'keep', reason: 'self-contained' } });
    }
    // Words of its own, or a pronoun, may still point further back; and a statement naming nothing specific does not answer "why".
    expect(resolveAndExpand('I am baking cookies. Which one would be best to use?', history, sp).decision.action).toBe('condense');
    expect(resolveAndExpand('That sounds great. Why?', history, sp).decision.action).toBe('condense');
  });

  it('a demonstrative or fragment that the message’s own earlier sentence resolves is kept as typed; one that needs the conversation is not', () => {
    const sp = specific({ workout: 0.3, sharks: 0.4, species: 0.3, baby: 0.9, remedy: 0.8 });
    const history = [{ user: 'What is a good workout after pregnancy?', assistant: 'Walking and pelvic floor exercises.' }];
    for (const text of ['Okay. I would like to spend time with my baby while working out. Do you have any ideas for that?', 'Are sharks endangered? If so, which species?']) {
      expect(resolveAndExpand(text, history, sp)).toMatchObject({ question: text, query: { text, terms: [] }, decision: { action: 'keep', reason: 'self-contained' } });
    }
    // Without the sentence before it, the same question is about the conversation.
    expect(resolveAndExpand('Do you have any ideas for that?', history, sp).decision.action).toBe('condense');
    // A statement that does not hold the reference leaves it to the conversation.
    const remedy = [{ user: 'Is there a home remedy for ear mites?', assistant: '' }];
    const out = resolveAndExpand('Thanks a lot. Would that work for cats?', remedy, sp);
    expect(out.decision.action).toBe('condense');
    expect(out.question).toContain('remedy');
  });

  it('a bare “Why?” after a statement asks about the statement: the statement is resolved, the question follows as typed', () => {
    const sp = specific({ garage: 0.8, door: 0.3, opener: 0.7, working: 0.2, bad: 0.1 });
    const history = [{ user: 'How do you know when your garage door opener is going bad?', assistant: 'It makes noise.' }];
    const out = resolveAndExpand('Now it stopped working. Why?', history, sp);
    expect(out.question).toBe('Now the garage door opener stopped working. Why?');
    expect(out.query.text).toBe('Now the garage door opener stopped working. Why?');
    // A statement that stands alone leaves the message as typed; a "why" with words of its own is read as before.
    expect(resolveAndExpand('My garage door opener stopped working. Why?', history, sp)).toMatchObject({ question: 'My garage door opener stopped working. Why?', decision: { action: 'keep' } });
    expect(resolveAndExpand('Now it stopped working. Why is it so loud?', history, sp).question).not.toMatch(/Why\?/);
  });

  it('a question pointing at the statement before it, which itself points back, resolves the statement', () => {
    const sp = specific({ melania: 0.9, trump: 0.8, kit: 0.9, kat: 0.9, club: 0.4, model: 0.4 });
    const history = [{ user: 'Who are Donald and Melania Trump?', assistant: '' }];
    const out = resolveAndExpand('They met at the Kit Kat Club? Where is that?', history, sp);
    expect(out.decision.action).toBe('condense');
    expect(out.question).toMatch(/^Donald and Melania Trump met at the Kit Kat Club\? Where is that\?$/);
    // A statement that names who met stands alone, and so does the question after it.
    expect(resolveAndExpand('Donald and Melania met at the Kit Kat Club? Where is that?', history, sp).decision.action).toBe('keep');
  });

  it('“and what about X?”, “and how about X?” open an ellipsis, not a question of their own', () => {
    const sp = specific({ ferguson: 0.9, protests: 0.6, brown: 0.8, happened: 0.1 });
    const history = [{ user: 'Why were there protests in Ferguson?', assistant: '' }];
    expect(resolveAndExpand('And how about what happened to Brown?', history, sp).decision).toMatchObject({ action: 'condense', reason: 'ellipsis' });
    // "and how do I …" asks a question of its own; specificity decides.
    expect(resolveAndExpand('And how did Brown die in Ferguson?', history, sp).decision.action).toBe('keep');
  });

  it('a bare plural subject names a kind, and a noun after an article is a noun: both questions stand alone', () => {
    const sp = specific({ turkey: 0.9, share: 0.2, solar: 0.4, energy: 0.2, power: 0.2, cost: 0.1 });
    const history = [{ user: 'How much of the market does Turkey share?', assistant: '' }, { user: 'Why is solar energy important?', assistant: '' }];
    for (const text of ['Where are turkeys from?', 'What is the cost of solar power?']) {
      expect(resolveAndExpand(text, history, sp)).toMatchObject({ question: text, decision: { action: 'keep', reason: 'self-contained' } });
    }
    // A determiner points back or quantifies; an aspect noun is an aspect of something.
    for (const text of ['Where are the turkeys from?', 'What are the benefits?', 'Are there any benefits?']) {
      expect(resolveAndExpand(text, history, sp).decision.action).toBe('condense');
    }
  });

  it('“the College” after “the Electoral College”: a bare definite noun takes the fuller name a user turn gave it', () => {
    const sp = specific({ electoral: 0.9, college: 0.4, abolished: 0.3, stanford: 0.9, experiment: 0.4, side: 0.2, effects: 0.2, drug: 0.9 });
    const history = [{ user: 'What is the Electoral College?', assistant: 'The Electoral College elects the president.' }, { user: 'Why do people want to change it?', assistant: '' }];
    const out = resolveAndExpand('How would the College be abolished?', history, sp);
    expect(out).toMatchObject({ question: 'How would the Electoral College be abolished?', decision: { action: 'condense', reason: 'definite-description', evidence: ['the College'.toLowerCase()] }, antecedents: ['Electoral College'] });
    // With a pronoun left to resolve, the definite reading is listed and said as well.
    const both = resolveAndExpand('How did the College change it?', [{ user: 'What is the Electoral College?', assistant: '' }, { user: 'Tell me about the Stanford experiment.', assistant: '' }], sp);
    expect(both.question).toMatch(/^How did the Electoral College change /);
    expect(both.antecedents[0]).toBe('Electoral College');
    expect(both.reason).toMatch(/^read “the college” as “the Electoral College”; /);
    // Already modified ("the Stanford experiment"), or followed by "of" or another noun: not a bare reference.
    const lab = [{ user: 'Tell me about the Stanford experiment.', assistant: '' }];
    expect(resolveAndExpand('Who ran the Stanford experiment?', lab, sp).question).toBe('Who ran the Stanford experiment?');
    expect(resolveAndExpand('What were the results of the experiment?', lab, sp).question).toBe('What were the results of the Stanford experiment?');
    expect(resolveAndExpand('What are the side effects of long term drug use?', [{ user: 'What are common side effects?', assistant: '' }], sp).question).toBe('What are the side effects of long term drug use?');
    // The user's own words first; failing them, a name in the last answer ("the Coast" after an answer about the Amalfi Coast), never an older one.
    expect(resolveAndExpand('How would the College be abolished?', [{ user: 'How is the president elected?', assistant: 'By the Electoral College.' }], sp).question).toBe('How would the Electoral College be abolished?');
    expect(resolveAndExpand('How would the College be abolished?', [{ user: 'How is the president elected?', assistant: 'By the Electoral College.' }, { user: 'Who counts the votes?', assistant: 'Congress does.' }], sp).question).not.toMatch(/Electoral/);
    expect(resolveAndExpand('What should I not miss on the Coast?', [{ user: 'Where should I go in Italy?', assistant: 'Details, Amalfi Coast: it was late morning by the time we arrived.' }], sp).question).toBe('What should I not miss on the Amalfi Coast?');
    // A participle after the noun makes no compound ("was the Squad established"); a noun ending in -ed does ("the flower bed").
    const protests = [{ user: 'There were protests in Nigeria. What happened?', assistant: 'Nigerians protested against the Special Anti-Robbery Squad, a unit of the police.' }];
    expect(resolveAndExpand('Why was the Squad established in the first place?', protests, sp).question).toBe('Why was the Special Anti-Robbery Squad established in the first place?');
    expect(resolveAndExpand('Is the Roadster related to the other cars?', [{ user: 'Tell me about the Tesla Roadster.', assistant: '' }], sp).question).toMatch(/^Is the Tesla Roadster related/);
    expect(resolveAndExpand('How big is the garden bed?', [{ user: 'How do I start a vegetable garden?', assistant: '' }], sp).question).toMatch(/^How big is the garden bed/);
  });

  it('a name said short (“Bench”, “Anne”) is the name the conversation wrote in full', () => {
    const sp = specific({ cooperstown: 0.9, bench: 0.3, bonny: 0.9, anne: 0.5, catchers: 0.6 });
    const pirates = [{ user: 'Who was Anne Bonny?', assistant: '' }, { user: 'What was she famous for?', assistant: '' }];
    const anne = resolveAndExpand('What happened to Anne?', pirates, sp);
    expect(anne).toMatchObject({ question: 'What happened to Anne Bonny?', decision: { action: 'condense', reason: 'definite-description', evidence: ['Anne'] }, antecedents: ['Anne Bonny'] });
    expect(anne.reason).toMatch(/^read “Anne” as “Anne Bonny”/);
    // No user turn names him: the answers do, in full and by the last name.
    const catchers = [{ user: 'Who are the greatest catchers of all time?', assistant: 'Johnny Bench is the greatest catcher in baseball history. Bench was Rookie of the Year in 1968. Yogi Berra fans will disagree.' }];
    expect(resolveAndExpand('Did Bench make it into Cooperstown?', catchers, sp).question).toBe('Did Johnny Bench make it into Cooperstown?');
    // A capitalized word before the noun it modifies is no name of its own; nor is one that opens the sentence,
    // nor the full name itself, nor the head of a place's name.
    const poetry = [{ user: 'Tell me about Hebrew Biblical poetry.', assistant: '' }];
    expect(resolveAndExpand('Did Biblical poetry influence hymns?', poetry, sp).question).toBe('Did Biblical poetry influence hymns?');
    expect(resolveAndExpand('Bench made it into Cooperstown?', catchers, sp).question).not.toMatch(/Johnny/);
    expect(resolveAndExpand('Did Anne Bonny have children?', pirates, sp).question).toBe('Did Anne Bonny have children?');
    expect(resolveAndExpand('Is the Lake frozen in winter?', [{ user: 'What is there to see in Salt Lake City?', assistant: '' }], sp).question).not.toMatch(/Salt Lake City/);
  });

  it('“he” where no user turn names a person: the person the answers name in full and again by the last name', () => {
    const sp = specific({ catchers: 0.6, known: 0.1, award: 0.4, married: 0.3 });
    const catchers = [{ user: 'Who are the greatest catchers of all time?', assistant: 'Johnny Bench is the greatest catcher in baseball history. Bench was Rookie of the Year in 1968. Yogi Berra fans will disagree.' }];
    const out = resolveAndExpand('What was he known for?', catchers, sp);
    expect(out.question).toBe('What was Johnny Bench known for?');
    // Possessive, and no article from a longer name the answer also writes ("the Johnny Bench Award").
    const award = [{ ...catchers[0]!, assistant: `${catchers[0]!.assistant} The best college catcher receives the Johnny Bench Award.` }];
    expect(resolveAndExpand('Who won his award?', award, sp).question).toBe('Who won Johnny Bench\'s award?');
    // A name never shortened in the answer ("Major League Baseball") is no person's; a user-named person comes first.
    const league = [{ user: 'Who are the greatest catchers of all time?', assistant: 'Catchers in Major League Baseball are rare. Major League Baseball says so.' }];
    expect(resolveAndExpand('Was he married?', league, sp).question).not.toMatch(/League/);
    const named = [{ user: 'Tell me about Yogi Berra.', assistant: 'Johnny Bench is the greatest catcher. Bench won twice.' }];
    expect(resolveAndExpand('Was he married?', named, sp).question).toBe('Was Yogi Berra married?');
  });

  it('a demonstrative before a noun is read like a definite one: “this theory” after an answer naming the Catecholamine Theory', () => {
    const sp = specific({ depression: 0.9, theory: 0.4, cause: 0.2, phenylalanine: 0.9 });
    const history = [{ user: 'How does phenylalanine affect mood?', assistant: 'One explanation is the Catecholamine Theory, which links low norepinephrine to low mood.' }];
    const out = resolveAndExpand('Does this theory explain the cause of depression?', history, sp);
    expect(out.question).toBe('Does the Catecholamine Theory explain the cause of depression?');
    expect(out.antecedents).toEqual(['Catecholamine Theory']);
    expect(out.reason).toMatch(/^read “this theory” as “the Catecholamine Theory”/);
    // No fuller name for the noun anywhere: the demonstrative is read as before (the topic as context).
    expect(resolveAndExpand('Does this drug help?', history, sp).question).not.toMatch(/Catecholamine/);
  });

  it('a relation with one side unnamed takes the conversation’s topic as context, below the typed words', () => {
    const sp = specific({ serotonin: 0.9, depression: 0.8 });
    const out = resolveAndExpand('What is the role of serotonin?', [{ user: 'What causes depression?', assistant: '' }], sp);
    expect(out).toMatchObject({ decision: { action: 'condense', reason: 'missing-argument' }, question: 'What is the role of serotonin (depression)?' });
    expect(out.query.text).toBe('What is the role of serotonin?');
    expect(out.query.terms.find((t) => t.term === 'depression')?.weight).toBeLessThan(1);
  });

  it('an aspect asked about ("the main advantages") is never what a later pronoun means; a number can be part of a name', () => {
    const sp = specific({ plan: 0.3, '529': 0.9, advantages: 0.6, disadvantages: 0.7, college: 0.4 });
    const history = [{ user: 'What is a 529 plan?', assistant: '' }, { user: 'What are the main disadvantages?', assistant: '' }];
    expect(resolveAndExpand('How long have they been around?', history, sp).question).toBe('How long have 529 plan been around?');
    expect(rankTopics(history, sp).map((t) => t.phrase)).not.toContain('main disadvantages');
  });

  it('he/she prefer a name, they a plural', () => {
    const sp = specific({ campaign: 0.9, bernie: 0.6, sanders: 0.6, openers: 0.8, garage: 0.8 });
    const history = [{ user: 'Tell me about Bernie Sanders', assistant: '' }, { user: 'How did the heart attack affect the campaign?', assistant: '' }];
    expect(resolveAndExpand('How did he regain confidence?', history, sp).question).toMatch(/Bernie Sanders/);
    const plural = [{ user: 'I want garage openers', assistant: '' }, { user: 'what about the campaign?', assistant: '' }];
    expect(resolveAndExpand('How could they be hacked?', plural, sp).question).toMatch(/garage openers/);
    // Plurals without an -s, and collective nouns, which English calls "they" as readily as "it".
    const people = specific({ spanish: 0.7, christmas: 0.8, people: 0.2, dinner: 0.2 });
    expect(resolveAndExpand('What do they eat for dinner?', [{ user: 'What is Christmas like for the Spanish people?', assistant: '' }], people).question).toBe('What do Spanish people eat for dinner?');
    const band = specific({ band: 0.9, recordings: 0.5 });
    expect(resolveAndExpand('Did they have a hit?', [{ user: 'Did the band sell recordings?', assistant: '' }], band).question).toBe('Did band have a hit?');
    // He and she mean one person: no plural name, no name of a place or an institution.
    const club = specific({ melania: 0.9, trump: 0.6, kit: 0.9, kat: 0.9, club: 0.3 });
    const met = [{ user: 'Who is Melania Trump?', assistant: '' }, { user: 'Where did they meet? At the Kit Kat Club?', assistant: '' }];
    expect(resolveAndExpand('When did she become a model?', met, club).question).toBe('When did Melania Trump become a model?');
    const researchers = specific({ cleverdon: 0.9, retrieval: 0.7, researchers: 0.4 });
    const ir = [{ user: 'Who was Cyril Cleverdon?', assistant: '' }, { user: 'Who are well-known Information Retrieval researchers?', assistant: '' }];
    expect(resolveAndExpand('What did he work on?', ir, researchers).question).toBe('What did Cyril Cleverdon work on?');
    // A name is written as one: "Melania Trump", not the phrase her possessive begins.
    const religion = specific({ melania: 0.9, trump: 0.6, religion: 0.5 });
    expect(resolveAndExpand('Does she have children?', [{ user: "What is Melania Trump's religion?", assistant: '' }], religion).question).toBe('Does Melania Trump have children?');
    // "it's" is "it is" after "if" or a verb that takes a clause, and a misspelled "its" after a verb that takes an object.
    const pain = specific({ shoulder: 0.8, pain: 0.5, growth: 0.3 });
    const shoulder = [{ user: 'Why does my shoulder pain keep coming back?', assistant: '' }];
    expect(resolveAndExpand("How do I know if it's serious?", shoulder, pain).question).toBe('How do I know if my shoulder pain is serious?');
    expect(resolveAndExpand("I heard it's hereditary?", shoulder, pain).question).toBe('I heard my shoulder pain is hereditary?');
    expect(resolveAndExpand("Describe it's growth.", [{ user: 'Tell me about Netflix.', assistant: '' }], specific({ netflix: 0.9 })).question).toBe("Describe Netflix's growth.");
  });

  it('a question\'s subject outranks the phrases after it: what it was about is what a following “it” continues', () => {
    // Internet Explorer is two specific words against one: without the subject's weight it would win.
    const sp = specific({ dompurify: 0.6, internet: 0.55, explorer: 0.55, trusted: 0.7, types: 0.3 });
    const history = [{ user: 'Does DOMPurify work in Internet Explorer?', assistant: '' }];
    expect(rankTopics(history, sp)[0]?.phrase).toBe('DOMPurify');
    expect(resolveAndExpand('does it support trusted types?', history, sp).question).toBe('does DOMPurify support trusted types?');
    // A subject with a complement ("the main function of X") is an aspect, a cut phrase ("a smart one") no subject.
    expect(subjectPhrases('Does the main function of a virtual machine need a lot of memory?')).toEqual(new Set());
    expect(subjectPhrases('What does a smart one do?')).toEqual(new Set());
    expect(subjectPhrases('How do smart garage door openers work?')).toEqual(new Set(['smart garage door openers']));
    expect(subjectPhrases('Which models does WebLLM support? The US government tried to help.')).toEqual(new Set(['webllm', 'us government']));
    // A copula's subject is the whole question ("What is X?"); only do-support and modals mark one.
    expect(subjectPhrases('What is the Bronze Age collapse?')).toEqual(new Set());
  });

  it('leaves a file extension after a name\'s dot out of phrases: "URI.js" is "URI", not "URI" and "js"', () => {
    expect(candidatePhrases('How do I parse a URI into its parts with URI.js?')).toEqual(['URI', 'URI']);
    expect(candidatePhrases('How do I use Node.js streams?')).toEqual(['Node', 'streams']);
    expect(candidatePhrases('my package.json scripts')).toEqual(['package', 'scripts']);
    // A member after a dot is a word of its own ("prototype"), and a sentence's end is no extension.
    expect(candidatePhrases('Use Array.prototype.filter')).toEqual(['Array', 'prototype', 'filter']);
    expect(candidatePhrases('I write JS. Ts is next')).toEqual(['JS', 'Ts']);
  });

  it('reads the word after an opening "how" that an auxiliary follows as the degree asked about, no topic: "how fast is it?" then "how much memory does that take?" no longer reads "does fast take"', () => {
    expect(candidatePhrases('how fast is it?')).toEqual([]);
    expect(candidatePhrases('And how long does the refund take?')).toEqual(['refund']);
    expect(candidatePhrases('How accurate is winkNLP?')).toEqual(['winkNLP']);
    // A noun there: an embedded question ("explain how …"), a name, or "how many/much" before its noun.
    expect(candidatePhrases('explain how caffeine is metabolized')).toEqual(['caffeine']);
    expect(candidatePhrases('how Redis is used')).toEqual(['Redis']);
    expect(candidatePhrases('How much memory does it use?')).toEqual(['memory']);
    const history = [{ user: 'How accurate is the tagger of winkNLP?', assistant: 'About 95%.' }, { user: 'how fast is it?', assistant: '650,000 tokens a second.' }];
    // "fast" is specific in that corpus (its speed section): it was what "that" pointed at.
    expect(resolveAndExpand('how much memory does that take?', history, (w) => (w === 'fast' ? 1 : 0.6)).question).toBe('how much memory does winkNLP take?');
  });

  it('after an auxiliary, a subject ends where its verb begins, however much a noun the verb is elsewhere: a name at the next lower-case word, any subject before a determiner', () => {
    expect(candidatePhrases('Does DOMPurify support trusted types?')).toEqual(['DOMPurify', 'trusted types']);
    expect(candidatePhrases('Does Internet Explorer support trusted types?')).toEqual(['Internet Explorer', 'trusted types']);
    expect(candidatePhrases('Can p-queue limit concurrency?')).toEqual(['p-queue', 'concurrency']);
    expect(candidatePhrases('Why did Dali choose surrealism?')).toEqual(['Dali', 'surrealism']);
    expect(subjectPhrases('How does jsPDF handle fonts?')).toEqual(new Set(['jspdf']));
    // A name that modifies a noun ("US law", then the verb; a plural, not a verb's base form) and a lower-case subject (no sign where it ends) stay whole.
    expect(candidatePhrases('Does US law allow it?')).toEqual(['US law']);
    expect(candidatePhrases('Do DOMPurify hooks run twice?')).toEqual(['DOMPurify hooks']);
    expect(candidatePhrases('Does brace expansion work on Windows?')).toEqual(['brace expansion', 'Windows']);
    expect(candidatePhrases('Does lobular carcinoma spread?')).toEqual(['lobular carcinoma spread']);
    // Any subject, lower-case too, ends before the verb when a determiner follows it: a noun phrase has none inside it.
    expect(candidatePhrases("Why does ignore throw an error for './abc'?")).toEqual(['ignore', 'error', 'abc']);
    expect(candidatePhrases('Can the cache evict an entry?')).toEqual(['cache', 'entry']);
    expect(candidatePhrases('Is the meal plan a good deal?')).toEqual(['meal plan', 'deal']);
    // A plural subject, then a word without -s that closes the clause: that word is the verb's base form.
    expect(candidatePhrases('Why would the roles reverse?')).toEqual(['roles']);
    expect(candidatePhrases('Why do cats purr?')).toEqual(['cats']);
    expect(resolveAndExpand('does it know whether config is a directory?', [{ user: "Why does ignore throw an error for './abc'?", assistant: '' }], specific({ ignore: 0.5, throw: 0.5, abc: 0.9 })).question).toBe('does ignore know whether config is a directory?');
    // Then "it" means the subject, not a phrase that runs on into the verb and its object.
    const sp = specific({ dompurify: 0.6, trusted: 0.7, types: 0.3, hooks: 0.6 });
    expect(resolveAndExpand('how do I add hooks to it?', [{ user: 'Does DOMPurify support trusted types?', assistant: '' }], sp).question).toBe('how do I add hooks to DOMPurify?');
  });

  it('a sentence ends at punctuation that closes a word, not at a symbol standing alone or a dot inside a word', () => {
    expect(sentencesOf('what does a leading ! do?')).toEqual(['what does a leading ! do?']);
    expect(sentencesOf('Thanks!! Is v2.0 out? And why not colors.js?')).toEqual(['Thanks!!', 'Is v2.0 out?', 'And why not colors.js?']);
    expect(sentencesOf('  Hmm... what now?  ')).toEqual(['Hmm...', 'what now?']);
    expect(sentencesOf('')).toEqual([]);
    // So an ellipsis after such a question splices into all of it, not into what follows the symbol.
    expect(lastQuestionClause('what does a leading ! do?')).toBe('what does a leading ! do');
    const history = [{ user: 'what does a leading ! do?', assistant: 'It negates the pattern.' }];
    expect(resolveAndExpand('and a pattern starting with #?', history, specific({ pattern: 0.6, leading: 0.3 })).question).toBe('what does a leading ! do, for a pattern starting with #?');
    // A run of 200,000 marks is read once, not again from each mark inside it (as a look-behind over the run would).
    const marks = `a${'!'.repeat(200_000)} b`;
    const started = performance.now();
    expect(sentencesOf(marks)).toEqual([`a${'!'.repeat(200_000)}`, 'b']);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('“do it” after a subject, a modal or “to” repeats the previous question\'s action (verb-phrase anaphora)', () => {
    const sp = specific({ docx: 0.9, mammoth: 0.9, html: 0.6, dompurify: 0.9, server: 0.4, node: 0.5, command: 0.3, line: 0.2 });
    const convert = [{ user: 'How do I convert a docx file to HTML with mammoth?', assistant: '' }];
    const out = resolveAndExpand('can I do it from the command line?', convert, sp);
    expect(out.question).toBe('can I convert a docx file to HTML with mammoth from the command line?');
    expect(out.decision).toMatchObject({ action: 'condense', evidence: ['do it'] });
    expect(out.reason).toBe('read “do it” as “convert a docx file to HTML with mammoth”; hedged with the previous question at 0.3');
    expect(resolveAndExpand('how do I do that in Node?', [{ user: 'Is it possible to run DOMPurify on the server?', assistant: '' }], sp).question).toBe('how do I run DOMPurify on the server in Node?');
    // The action of the previous question as resolved: its own pronoun already read.
    expect(resolveAndExpand('Can I do this from the command line?', [...convert, { user: 'Can I run it without node?', assistant: '' }], sp).question).toMatch(/^Can I run (?!it\b)\S.* without node from the command line\?$/);
    // "do" after "it" is no action of the user's, and a question that asked for no action has none to repeat.
    expect(resolveAndExpand('does it do that automatically?', convert, sp).reason).not.toMatch(/^read “do/);
    expect(resolveAndExpand('can I do it from the command line?', [{ user: 'What is mammoth?', assistant: '' }], sp).reason).not.toMatch(/^read “do/);
  });

  it('“how do I stop that?” points at what the previous question described (discourse deixis): that question is restated before it, as typed', () => {
    const sp = specific({ tinyexec: 0.9, eslint: 0.9, grep: 0.9, node_modules: 0.8, mustache: 0.9, html: 0.6, escape: 0.5 });
    const history = [
      { user: 'How do I run a command with tinyexec?', assistant: 'Call `x(command, args)`.' },
      { user: 'and pipe the output into grep?', assistant: 'Pipe one result into another.' },
      { user: 'will it find eslint from my node_modules?', assistant: 'Yes: node_modules/.bin is prepended to PATH.' },
    ];
    const out = resolveAndExpand('how do I stop that?', history, sp);
    // Not a thing the previous question named ("how do I stop grep?").
    expect(out.question).toBe('will it find eslint from my node_modules? how do I stop that?');
    expect(out.query.text).toBe(out.question);
    expect(out.decision).toMatchObject({ action: 'condense', reason: 'demonstrative' });
    expect(out.reason).toMatch(/^read “that” as what the previous question described/);
    expect(out.query.terms.map((t) => t.term)).toContain('tinyexec'); // the conversation's topic, below the typed words
    // An ellipsis after it continues both sentences: "that" still needs the one before.
    const escaping = [{ user: 'How do I render a template with mustache?', assistant: '' }, { user: 'does it escape HTML?', assistant: 'Yes, {{name}} is escaped.' }];
    expect(resolveAndExpand('how do I turn that off for one variable?', escaping, sp).question).toBe('does it escape HTML? how do I turn that off for one variable?');
    const next = [...escaping, { user: 'how do I turn that off for one variable?', assistant: 'Use {{{name}}}.' }];
    expect(resolveAndExpand('and for everything?', next, sp).question).toBe('does it escape HTML? how do I turn that off for everything?');
    // A subject or a preposition's object names a thing as often ("Did that help?"); a clause before it in the same
    // sentence is what it points at ("long strings get wrapped, how do I stop that?"); "do that" repeats an action.
    for (const typed of ['does that escape quotes too?', 'tell me more about that', 'HTML gets escaped, how do I stop that?', 'how do I stop that process?']) {
      expect(resolveAndExpand(typed, escaping, sp).reason).not.toMatch(/previous question described/);
    }
    expect(resolveAndExpand('how do I do that for everything?', next, sp).reason).toMatch(/^read “do that”/);
    // A pasted log before the previous question is not repeated: its question and what fits of the sentences before it.
    const log = `${'Error: cannot find module. '.repeat(40)}Our CI prints this. Will it find eslint from my node_modules?`;
    const pasted = resolveAndExpand('how do I stop that?', [{ user: log, assistant: 'Yes.' }], sp).question;
    expect(pasted.endsWith('Our CI prints this. Will it find eslint from my node_modules? how do I stop that?')).toBe(true);
    expect(pasted.length).toBeLessThan(330);
  });

  it('a question with a pronoun and a place reads both (“how do I enable it there?”); a second pronoun keeps meaning the first one\'s', () => {
    const sp = specific({ debug: 0.5, browser: 0.6, jerry: 0.9, garcia: 0.9, finger: 0.6 });
    const out = resolveAndExpand('how do I enable it there?', [{ user: 'Does debug work in the browser?', assistant: '' }], sp);
    expect(out.question).toBe('how do I enable debug in the browser?');
    expect(out.decision.evidence).toEqual(['it', 'there']);
    expect(resolveAndExpand('How did he lose his finger?', [{ user: 'Who was Jerry Garcia?', assistant: '' }], sp).question).toBe('How did Jerry Garcia lose his finger?');
  });

  it('a pronoun continues only a center of its own kind, and whoever he or she meant is no later “it”', () => {
    const sp = specific({ franklin: 0.9, ben: 0.6, turkey: 0.6, symbol: 0.4, national: 0.2 });
    const history = [{ user: 'Where do turkeys come from?', assistant: '' }, { user: 'Why did Ben Franklin want it to be the national symbol?', assistant: '' }, { user: 'How did he cook it?', assistant: '' }];
    expect(resolveHistory(history, sp).at(-1)?.user).toMatch(/\(Ben Franklin\)/);
    const out = resolveAndExpand('Why is it eaten on Thanksgiving?', history, sp);
    expect(out.decision.reason).toBe('dangling-pronoun');
    expect(out.question).not.toMatch(/Franklin/);
    // "theirs" after "he" meant Bernie Sanders: not him.
    const sanders = specific({ bernie: 0.9, sanders: 0.9, records: 0.6, candidates: 0.5, confidence: 0.3 });
    const campaign = [{ user: 'I heard Bernie Sanders was ill. What happened?', assistant: '' }, { user: 'How did he regain confidence?', assistant: '' }];
    expect(resolveAndExpand('What about the other candidates? Did they release theirs?', campaign, sanders).question).toBe('What about the other candidates? Did candidates release theirs?');
  });

  it('a pronoun continues what the previous turn’s pronoun meant, though that turn named something newer; a demonstrative, or a statement in between, does not', () => {
    const sp = specific({ netflix: 0.9, amazon: 0.9, prime: 0.6, video: 0.4, subscriber: 0.5, growth: 0.3 });
    const history = [{ user: 'Tell me about Netflix.', assistant: '' }, { user: 'How does it compare to Amazon Prime Video?', assistant: '' }];
    expect(resolveHistory(history, sp).at(-1)?.user).toBe('How does it compare to Amazon Prime Video? (Netflix)');
    expect(resolveAndExpand('Describe its subscriber growth.', history, sp).question).toBe("Describe Netflix's subscriber growth.");
    expect(resolveAndExpand('Describe it’s subscriber growth.', history, sp).question).toMatch(/^Describe Netflix/);
    // Small talk in between is about nothing: the center carries over it.
    expect(resolveAndExpand('Describe its subscriber growth.', [...history, { user: 'Thanks!', assistant: 'You are welcome.' }], sp).question).toBe("Describe Netflix's subscriber growth.");
    // "that" points at what was just mentioned; a statement first is the newer utterance.
    expect(resolveAndExpand('How much does that cost?', history, sp).question).toMatch(/Amazon Prime Video/);
    expect(resolveAndExpand('I use Amazon Prime Video daily. Is it cheaper?', history, sp).question).toMatch(/Is Amazon Prime Video cheaper/);
    // Without a pronoun in the previous turn, recency decides as before.
    const named = [{ user: 'Tell me about Netflix.', assistant: '' }, { user: 'What about Amazon Prime Video?', assistant: '' }];
    expect(resolveAndExpand('Describe its subscriber growth.', named, sp).question).not.toMatch(/Netflix/);
  });

  it('a locative “there” points back at a place the user named after “in”, “at”, “near”; an existential “there” points at nothing', () => {
    const sp = specific({ yakiniku: 0.9, tokyo: 0.8, sushi: 0.8, michelin: 0.9, nyc: 0.9, living: 0.2 });
    const history = [{ user: 'What are the best Yakiniku restaurants in Tokyo?', assistant: '' }];
    expect(resolveAndExpand('Tell me other fun things to do there.', history, sp)).toMatchObject({ question: 'Tell me other fun things to do in Tokyo.', decision: { reason: 'dangling-pronoun' } });
    // "compared to NYC" names a place too, but "to" is no locative: Tokyo still.
    expect(resolveAndExpand('What is the cost of living there compared to NYC?', history, sp).question).toBe('What is the cost of living in Tokyo compared to NYC?');
    expect(gateBySpecificity('Is there a sushi bar with a Michelin star?', true, sp)).toMatchObject({ action: 'keep' });
    expect(gateBySpecificity('Are there any cheap ones?', true, sp).reason).not.toBe('dangling-pronoun');
    expect(gateBySpecificity('There are many, which is best?', true, sp).reason).not.toBe('dangling-pronoun');
  });

  it('“How about X?” puts X in place of what was asked about: the next “it” means X, however salient the first topic', () => {
    const sp = specific({ blood: 0.6, carbon: 0.7, dioxide: 0.8, cholesterol: 0.7, treat: 0.2, eat: 0.2, improve: 0.2 });
    const history = [{ user: 'What is high blood carbon dioxide?', assistant: '' }, { user: 'What should you do to treat it?', assistant: '' }, { user: 'How about high cholesterol?', assistant: '' }];
    expect(resolveAndExpand('What should I eat to improve it?', history, sp).question).toBe('What should I eat to improve high cholesterol?');
    // An addition ("and X?") is no alternative: the topic stays.
    const added = [...history.slice(0, 2), { user: 'And with medication?', assistant: '' }];
    expect(resolveAndExpand('What should I eat to improve it?', added, sp).question).toMatch(/carbon dioxide/);
  });

  it('a name left alone ("and Plus?") takes the place of the name it contrasts with, which is then no context; other remnants are spliced', () => {
    const sp = specific({ pro: 0.6, plus: 0.6, plan: 0.3, france: 0.7, germany: 0.7, capital: 0.3, shipping: 0.5, canada: 0.8 });
    const plans = resolveAndExpand('and Plus?', [{ user: 'How much is the Pro plan?', assistant: '' }], sp);
    expect(plans.question).toBe('How much is the Plus plan?');
    expect(plans.query.terms.map((t) => t.term)).not.toContain('pro');
    expect(resolveAndExpand('What about Germany?', [{ user: 'What is the capital of France?', assistant: '' }], sp).question).toBe('What is the capital of Germany?');
    // The last name of the question is its focus: "compare to Hulu" → "compare to Amazon".
    expect(resolveAndExpand('what about Amazon?', [{ user: 'How does Netflix compare to Hulu?', assistant: '' }], specific({ netflix: 0.9, hulu: 0.9, amazon: 0.9 })).question).toBe('How does Netflix compare to Amazon?');
    // No name to contrast with, or a remnant that is no name: spliced as before.
    expect(resolveAndExpand('and to Canada?', [{ user: 'How long does shipping take?', assistant: '' }], sp).question).toBe('How long does shipping take to Canada?');
    expect(resolveAndExpand('and Canada?', [{ user: 'how long does shipping take?', assistant: '' }], sp).question).toBe('how long does shipping take, for Canada?');
    // A name that is a whole noun phrase after "the" takes the article with it; one before a noun leaves it to the noun.
    const people = specific({ ivanka: 0.9, lady: 0.5, pro: 0.6, plus: 0.6, plan: 0.3 });
    expect(resolveAndExpand('What about Ivanka?', [{ user: 'Do we pay the First Lady?', assistant: '' }], people).question).toBe('Do we pay Ivanka?');
    expect(resolveAndExpand('and Plus?', [{ user: 'How much is the Pro plan?', assistant: '' }], people).question).toBe('How much is the Plus plan?');
  });

  it('a reference resolved by a guess is hedged, at the previous turn’s history weight: a pronoun with the previous question and this one, an ellipsis (already spliced into the previous question) with the fragment as typed, a comparative with the question as typed; other condensations and kept turns are not', () => {
    const sp = specific({ plus: 0.6, plan: 0.3, offline: 0.8, mode: 0.3, pro: 0.6, benefits: 0.2 });
    const history = [{ user: 'What does the Plus plan cost?', assistant: '' }];
    const pronoun = resolveAndExpand('does it include offline mode?', history, sp);
    expect(pronoun.decision.reason).toBe('dangling-pronoun');
    expect(pronoun.query).toMatchObject({ hedge: 'What does the Plus plan cost? does it include offline mode?', hedgeWeight: 0.3 });
    expect(pronoun.reason).toMatch(/hedged with the previous question at 0\.3$/);
    const ellipsis = resolveAndExpand('and offline mode?', history, sp);
    expect(ellipsis.decision.reason).toBe('ellipsis');
    expect(ellipsis.question).toMatch(/^What does the Plus plan cost/);
    expect(ellipsis.query).toMatchObject({ hedge: 'and offline mode?', hedgeWeight: 0.3 });
    expect(ellipsis.reason).toMatch(/hedged with the fragment as typed at 0\.3$/);
    // The weight follows historyWeight (at most 1); small talk is no question to pair with.
    expect(resolveAndExpand('does it include offline mode?', history, sp, { historyWeight: 0.5 }).query.hedgeWeight).toBe(0.5);
    expect(resolveAndExpand('does it include offline mode?', [...history, { user: 'thanks!', assistant: '' }], sp).query.hedge).toBe('What does the Plus plan cost? does it include offline mode?');
    // A superlative with its noun left out gets the topic as context, a guess: hedged with the question as typed.
    const superlative = resolveAndExpand('What is the best in my morning latte?', [{ user: 'Which plant milks are vegan?', assistant: '' }, { user: 'Is oat milk good in coffee?', assistant: '' }], specific({ oat: 0.8, latte: 0.8, vegan: 0.7, milks: 0.4, coffee: 0.5 }));
    expect(superlative.decision.reason).toBe('comparative');
    expect(superlative.question).toMatch(/^What is the best in my morning latte \(.+\)\?$/);
    expect(superlative.query).toMatchObject({ hedge: 'What is the best in my morning latte?', hedgeWeight: 0.3 });
    expect(superlative.reason).toMatch(/hedged with the question as typed at 0\.3$/);
    // A substitute ("Islamic ones") stands for a noun the conversation said: the topic as context, a guess, hedged too.
    const ones = resolveAndExpand('How are literary devices used in Islamic ones?', [{ user: 'What are the literary devices of Biblical poetry?', assistant: '' }], specific({ biblical: 0.8, poetry: 0.6, literary: 0.5, devices: 0.4, islamic: 0.8 }));
    expect(ones.decision).toMatchObject({ reason: 'substitution', evidence: ['islamic ones'] });
    expect(ones.question).toBe('How are literary devices used in Islamic ones (Biblical poetry)?');
    expect(ones.query.text).toBe('How are literary devices used in Islamic ones?');
    expect(ones.query.terms.find((t) => t.term === 'poetry')?.weight).toBeLessThan(1);
    expect(ones.query).toMatchObject({ hedge: 'How are literary devices used in Islamic ones?', hedgeWeight: 0.3 });
    expect(ones.reason).toMatch(/^read “islamic ones” with a noun the conversation said; added the topic “Biblical poetry” \(as context\); hedged with the question as typed at 0\.3$/);
    // A topic appended to an everyday question is searched as it is.
    expect(resolveAndExpand('what are the main benefits?', history, sp).query).not.toHaveProperty('hedge');
  });

  it('a later question kept as typed is searched as typed, with the previous question ranked beside it at the previous question’s word weight; not a first turn, nor after a topic switch', () => {
    const sp = specific({ plus: 0.7, plan: 0.3, offline: 0.8, mode: 0.3, pro: 0.7, cost: 0.2, pricing: 0.6 });
    const history = [{ user: 'What does the Plus plan cost?', assistant: 'Plus costs $8 a month.' }];
    const kept = resolveAndExpand('Does the Pro plan include offline mode?', history, sp);
    expect(kept).toMatchObject({ decision: { action: 'keep', reason: 'self-contained' }, question: 'Does the Pro plan include offline mode?' });
    expect(kept.query).toEqual({ text: 'Does the Pro plan include offline mode?', terms: [], hedge: 'What does the Plus plan cost? Does the Pro plan include offline mode?', hedgeWeight: 0.15 });
    expect(kept.reason).toBe('kept as typed (self-contained); the previous question ranked beside it at 0.15');
    expect(resolveAndExpand('Does the Pro plan include offline mode?', history, sp, { previousWordWeight: 0 }).query).not.toHaveProperty('hedge');
    expect(resolveAndExpand('Does the Pro plan include offline mode?', [], sp).query).not.toHaveProperty('hedge');
    const switched = resolveAndExpand('Different question: does the Pro plan include offline mode?', history, sp);
    expect(switched.decision.reason).toBe('topic-switch');
    expect(switched.query).not.toHaveProperty('hedge');
  });

  it('a repair (“No, I meant X.”) is a remnant of the previous question: spliced, replacing what it contrasts with; “I mean, what …?” asks anew', () => {
    const sp = specific({ mania: 0.8, depression: 0.7, person: 0.2, humans: 0.4, defects: 0.6, worried: 0.3, medicare: 0.9, coverage: 0.4, crown: 0.7, insurance: 0.4, ferritin: 0.9 });
    const both = resolveAndExpand('No, I meant mania and depression.', [{ user: 'Does the theory explain the cause of depression?', assistant: '' }, { user: 'Can a person have both at the same time?', assistant: '' }], sp);
    expect(both.decision).toMatchObject({ action: 'condense', reason: 'ellipsis' });
    expect(both.question).toBe('Can a person have mania and depression at the same time?');
    // An adverb after the pro-form is no noun it determines ("both together": isNoun excludes the few content words never nouns).
    expect(resolveAndExpand('No, I meant ibuprofen and aspirin.', [{ user: 'Can I take both together?', assistant: '' }], sp).question).toBe('Can I take ibuprofen and aspirin together?');
    expect(resolveAndExpand('No, I meant in humans.', [{ user: 'What are the defects researchers are worried about in mice?', assistant: '' }], sp).question).toBe('What are the defects researchers are worried about in humans?');
    expect(resolveAndExpand('I meant medicare', [{ user: 'What is the coverage of the crown in insurance?', assistant: '' }], sp).question).toBe('What is the coverage of the crown in insurance, for medicare?');
    expect(resolveAndExpand('Sorry, I meant to help my ferritin.', [{ user: 'What should I change in my diet?', assistant: '' }], sp).question).toBe('What should I change in my diet to help my ferritin?');
    // What the repair meant is what the conversation is about from then on.
    const history = [{ user: 'What is the coverage of the crown in insurance?', assistant: '' }, { user: 'No, I meant medicare.', assistant: '' }];
    expect(resolveAndExpand('Who pays for it?', history, sp).question).toBe('Who pays for medicare?');
    expect(resolveAndExpand('Sorry, I meant to ask about the Plus plan.', [{ user: 'How much is the Pro plan?', assistant: '' }], specific({ pro: 0.6, plus: 0.6, plan: 0.3 })).question).toBe('How much is the Plus plan?');
    // A question after "I mean" or "I meant to ask" is a question of its own.
    expect(gateBySpecificity('I mean, what is the coverage of medicare?', true, sp)).toMatchObject({ action: 'keep' });
    // "I mean it.", "I meant that.": no remnant to splice.
    expect(gateBySpecificity('I mean it.', true, sp).reason).not.toBe('ellipsis');
    expect(resolveAndExpand('I meant to ask how much medicare covers.', [{ user: 'What is the coverage of the crown in insurance?', assistant: '' }], sp).question).not.toMatch(/insurance/);
  });

  it('a remnant noun with a phrase of its own replaces the question’s noun and its determiner, not its verb', () => {
    const sp = specific({ order: 0.5, orders: 0.5, canada: 0.9, track: 0.4 });
    const out = resolveAndExpand('what about orders to canada?', [{ user: 'my order hasnt arrived', assistant: '' }, { user: 'how do i track my order', assistant: '' }], sp);
    // (A message typed all in lower case is read with "I" capitalized, as written-forms.ts reads it.)
    expect(out.question).toBe('how do I track orders to canada?');
    // An infinitive after the remnant is no phrase of a noun's: spliced as before.
    expect(resolveAndExpand('What about the largest to ever walk the earth?', [{ user: 'What is the largest mammal in the world?', assistant: '' }], sp).question).toMatch(/in the world, for the largest to ever walk the earth\?$/);
  });

  it('a demonstrative whose noun names no topic (“that option”) points at what was just said: the previous question is restated before it', () => {
    const sp = specific({ wrap: 0.9, xml: 0.9, escape: 0.6, width: 0.5 });
    const history = [
      { user: 'How do I wrap text at 60 characters with word-wrap?', assistant: 'wrap(str, {width: 60}).' },
      { user: "I'm putting wrapped text into XML, can word-wrap escape each line?", assistant: 'Yes: pass a function as the escape option.' },
    ];
    const out = resolveAndExpand("what's the default for that option?", history, sp);
    // Not the conversation's topic appended ("what's the default for the option (XML)?").
    expect(out.question).toBe("I'm putting wrapped text into XML, can word-wrap escape each line? what's the default for that option?");
    expect(out.reason).toMatch(/^read “that option” as what the previous question said/);
    expect(out.query.text).toBe(out.question);
    // A noun a topic names is read as that topic, as before ("that width" → "the width"), and nothing is restated.
    const named = resolveAndExpand('can I change that width later?', history, sp);
    expect(named.question).not.toMatch(/XML/);
    expect(named.reason).not.toMatch(/previous question said/);
  });

  it('a demonstrative standing alone points at what the previous turn said; with a noun it is read like “the”', () => {
    const sp = specific({ offline: 0.9, devices: 0.4, note: 0.4, edit: 0.5, fix: 0.3 });
    const history = [{ user: 'does it work offline?', assistant: 'Yes.' }, { user: 'what happens when two devices edit the same note?', assistant: 'Both versions are kept.' }];
    const out = resolveAndExpand('why does that happen?', history, sp);
    expect(out.decision.reason).toBe('demonstrative');
    expect(out.question).toMatch(/note/); // the phrase just said, not the conversation's topic ("offline")
    // As the object of what the user wants to do, it points at what that turn described, which is restated.
    expect(resolveAndExpand('how do I fix that?', history, sp).question).toBe('what happens when two devices edit the same note? how do I fix that?');
    // "it" continues the conversation's topic instead.
    expect(resolveAndExpand('how do I turn it on?', history, sp).question).not.toMatch(/note/);
  });

  it('a demonstrative read as a pronoun where no noun of its follows (an adjective, an adverb, a verb), and the one the gate flagged is the one replaced', () => {
    const sp = specific({ iframe: 0.9, comlink: 0.9, origin: 0.5, version: 0.6, flag: 0.5, range: 0.3, text: 0.3, magicstring: 0.9, cache: 0.8, entries: 0.5, dispose: 0.9 });
    const safe = resolveAndExpand('is that safe if the other origin is untrusted?', [{ user: 'How do I talk to an iframe with comlink?', assistant: '' }], sp);
    expect(safe.question).not.toMatch(/the safe/);
    expect(safe.question).toMatch(/^is (?:the )?(?:iframe|comlink) safe if the other origin is untrusted/);
    expect(resolveAndExpand('can I use -v for that instead?', [{ user: 'How do I add a version flag?', assistant: '' }], sp).question).not.toMatch(/the instead/);
    const slow = resolveAndExpand('Does this slow the cache down?', [{ user: 'How do I close entries with dispose when the cache evicts them?', assistant: '' }], sp);
    expect(slow.question).not.toMatch(/the slow/);
    expect(slow.question).toMatch(/slow the cache down/);
    // "text that moves": the relative "that" stays; "that range" is the reference, read as the topic it heads.
    const relative = resolveAndExpand('can I insert text that moves along when that range is moved?', [{ user: 'What happens when I move the character range twice in magic-string?', assistant: '' }], specific({ character: 0.6, range: 0.6, magicstring: 0.9, text: 0.3 }));
    expect(relative.question).toBe('can I insert text that moves along when the character range is moved?');
    // Where no topic of more words is headed by its noun, what it points at is restated, the relative "that" as typed.
    const restated = resolveAndExpand('can I insert text that moves along when that range is moved?', [{ user: 'What happens when I move the range twice in magic-string?', assistant: '' }], sp);
    expect(restated.question).toBe('What happens when I move the range twice in magic-string? can I insert text that moves along when that range is moved?');
  });

  it('an ellipsis continues the previous question as it was searched (its own trace), not as the rules alone would read it', () => {
    const sp = specific({ mocha: 0.9, sourcemapsupport: 0.9, source: 0.5, map: 0.5, support: 0.5, lines: 0.3, original: 0.3, code: 0.2, stack: 0.6, traces: 0.6 });
    const history = [{ user: 'My stack traces point at the compiled code. How do I get the original lines with source-map-support?', assistant: '' }];
    const previous = resolveAndExpand('can I do it without touching the code?', history, sp);
    expect(previous.question).toBe('can I get the original lines with source-map-support without touching the code?');
    const out = resolveAndExpand('and in my mocha tests?', [...history, { user: 'can I do it without touching the code?', assistant: '' }], sp);
    expect(out.decision.reason).toBe('ellipsis');
    expect(out.question).toBe('can I get the original lines with source-map-support without touching the code in my mocha tests?');
  });

  it('a remnant that picks by rank replaces the question’s rank of the same kind', () => {
    const sp = specific({ period: 0.6, characteristic: 0.4, crust: 0.8, oceanic: 0.8 });
    const periods = [{ user: 'You mentioned three periods. What was characteristic about the first one?', assistant: '' }];
    expect(resolveAndExpand('What about the second?', periods, sp).question).toBe('What was characteristic about the second one?');
    expect(resolveAndExpand('And the last?', [...periods, { user: 'What about the second?', assistant: '' }], sp).question).toBe('What was characteristic about the last one?');
    expect(resolveAndExpand('What about the oldest?', [{ user: 'Where is the youngest oceanic crust found?', assistant: '' }], sp).question).toBe('Where is the oldest oceanic crust found?');
    // An ordinal does not replace a superlative.
    expect(resolveAndExpand('What about the second?', [{ user: 'Where is the youngest oceanic crust found?', assistant: '' }], sp).question).not.toMatch(/the second oceanic/);
  });

  it('a lower-case remnant replaces the modifiers of its own noun, or a modifier the conversation shows it contrasts with; otherwise it is spliced', () => {
    const sp = specific({ chocolate: 0.6, milk: 0.3, dark: 0.3, healthy: 0.3, delivery: 0.4, standard: 0.3, express: 0.5, shipping: 0.5, anxiety: 0.7, eating: 0.3, disorders: 0.6, symptoms: 0.4 });
    expect(resolveAndExpand('what about dark chocolate?', [{ user: 'is milk chocolate healthy?', assistant: '' }], sp).question).toBe('is dark chocolate healthy?');
    expect(resolveAndExpand('what about eating disorders?', [{ user: 'what are the symptoms of anxiety disorders?', assistant: '' }], sp).question).toBe('what are the symptoms of eating disorders?');
    const delivery = { user: 'how long is standard delivery?', assistant: 'Standard shipping takes 3 to 7 business days; express shipping arrives in 1 to 2 business days.' };
    const express = resolveAndExpand('what about express?', [delivery], sp);
    expect(express.question).toBe('how long is express delivery?');
    expect(express.query.terms.map((t) => t.term)).not.toContain('standard');
    // One side of a pair the question asked about together replaces the pair.
    expect(resolveAndExpand('And what about the cons?', [{ user: 'What are the pros and cons of GMO labeling?', assistant: '' }], sp).question).toBe('What are the cons of GMO labeling?');
    // Nothing in the conversation puts "express" beside "standard": spliced.
    expect(resolveAndExpand('what about express?', [{ ...delivery, assistant: 'It takes 3 to 7 business days.' }], sp).question).toBe('how long is standard delivery, for express?');
    // A remnant with a determiner and a name in it ("the Pro plan") replaces the phrase with its noun, keeping the question's determiner.
    const pro = resolveAndExpand('what about the Pro plan?', [{ user: 'how many devices can the free plan sync?', assistant: '' }], specific({ plan: 0.3, pro: 0.6, free: 0.3, devices: 0.4 }));
    expect(pro.question).toBe('how many devices can the Pro plan sync?');
    expect(pro.reason).toMatch(/^put “Pro plan” in place of “free plan”/);
    // A prepositional remnant replaces the question's phrase with the same preposition; with none, it is added.
    expect(resolveAndExpand('and per year?', [{ user: 'how much is Plus per month?', assistant: '' }], specific({ plus: 0.6, month: 0.3, year: 0.3 })).question).toBe('how much is Plus per year?');
    expect(resolveAndExpand('and in children?', [{ user: 'What are the symptoms of flu in adults?', assistant: '' }], specific({ flu: 0.7, adults: 0.3, children: 0.3 })).question).toBe('What are the symptoms of flu in children?');
    expect(resolveAndExpand('and to Canada?', [{ user: 'How long does shipping take to Germany?', assistant: '' }], sp).question).toBe('How long does shipping take to Canada?');
    // A remnant with another noun adds to the question ("symptoms" stays).
    expect(resolveAndExpand('what about side effects?', [{ user: 'what are the symptoms of anxiety disorders?', assistant: '' }], sp).question).toBe('what are the symptoms of anxiety disorders, for side effects?');
  });

  it('an alternative that repeats a noun with a new phrase parallels the question that asked about that noun, not the previous one', () => {
    const sp = specific({ stigma: 0.8, africa: 0.7, asia: 0.7, america: 0.7, north: 0.4, methods: 0.3, western: 0.5, medicine: 0.5, causes: 0.2 });
    const history = [
      { user: 'What are the causes of stigma in Africa?', assistant: '' },
      { user: 'Could you expand on some of these methods?', assistant: '' },
      { user: 'How effective are these methods and could they be combined with Western medicine?', assistant: '' },
    ];
    // "Okay. Now, …": both markers read past; "the causes" repeated, "in Asia" takes the place of "in Africa".
    expect(resolveAndExpand('Okay. Now, what about the causes in Asia?', history, sp).question).toBe('Okay. What are the causes of stigma in Asia?');
    // A second alternative parallels the question the first one did, not the first one's reading of it.
    const second = [...history, { user: 'What about the causes in Asia?', assistant: '' }, { user: 'Is there a relationship between these values and mental illness?', assistant: '' }];
    expect(resolveAndExpand('What about the causes in North America?', second, sp).question).toBe('What are the causes of stigma in North America?');
    // A noun alone contrasts with what the previous question asked about; a repair corrects the previous question.
    const dog = [{ user: 'Can my dog get the virus?', assistant: '' }, { user: 'How can I protect my family?', assistant: '' }];
    expect(resolveAndExpand('what about my dog?', dog, sp).question).toMatch(/^How can I protect/);
    expect(resolveAndExpand('No, I meant the causes in Asia.', history, sp).question).not.toMatch(/stigma/);
    // Nothing older names the noun: the previous question, as before.
    expect(resolveAndExpand('what about the risks in Asia?', history, sp).question).toMatch(/^How effective are/);
  });

  it('a noun asked "of" a bare noun phrase of two words or more names its topic, everyday as the words are; an article, a pro-form or one word does not', () => {
    const everyday = specific({ solar: 0.3, energy: 0.3, advantages: 0.2, conflict: 0.3, theory: 0.3, examples: 0.2, treatment: 0.3, melatonin: 0.9 });
    expect(gateBySpecificity('What are advantages of solar energy?', true, everyday)).toMatchObject({ action: 'keep', reason: 'self-contained', evidence: ['solar energy'] });
    expect(gateBySpecificity('What are modern examples of conflict theory?', true, everyday).action).toBe('keep');
    expect(gateBySpecificity('What are examples of important ones?', true, everyday).action).toBe('condense');
    expect(gateBySpecificity('What are the side effects of the treatment?', true, everyday).action).toBe('condense');
    expect(gateBySpecificity('What are examples of energy?', true, everyday).action).toBe('condense');
  });

  it('a verb whose object is "my …" names what the question is about, everyday as the noun is; a subject, a preposition\'s object or an aspect does not', () => {
    const everyday = specific({ password: 0.9, forgot: 0.3 });
    const history = [{ user: 'I forgot my password', assistant: '' }];
    expect(gateBySpecificity('how do I delete my account instead?', true, everyday)).toMatchObject({ action: 'keep', reason: 'self-contained', evidence: ['account'] });
    expect(resolveAndExpand('how do I delete my account instead?', history, everyday).question).toBe('how do I delete my account instead?');
    expect(gateBySpecificity('will my notes be gone right away?', true, everyday).action).toBe('condense');
    expect(gateBySpecificity('is it still safe on my garden?', true, everyday).action).toBe('condense');
    expect(gateBySpecificity('how can I increase my levels naturally?', true, everyday).action).toBe('condense');
    expect(gateBySpecificity('what about my dog?', true, everyday).action).toBe('condense');
  });

  it('a condensed question adds the names the last answer wrote as code, at half the previous turn\'s weight; a name the index splits, an everyday word or a kept turn adds nothing', () => {
    const sp = specific({ task: 0.3, timeout: 0.6, milliseconds: 0.6 });
    const history = [{ user: 'Can a task give up if it takes too long?', assistant: 'Set timeout in milliseconds; with throwOnTimeout: true the task rejects (see queue.add(fn, options), QUEUE_SIZE_LIMIT and the item(s) list).' }];
    const weights = (q: ReturnType<typeof resolveAndExpand>) => Object.fromEntries(q.query.terms.map((t) => [t.term, t.weight]));
    // The previous question's everyday words are tested below; here only the names.
    const names = { previousWordWeight: 0 };
    // An everyday question with the topic appended, and a pronoun: both add the answer's names, after the user's words.
    const topic = resolveAndExpand('and what is the default?', history, sp, names);
    expect(topic.decision.reason).toBe('implicit-topic');
    expect(weights(topic)).toEqual({ task: 0.5, throwontimeout: 0.15, add: 0.15 });
    expect(topic.reason).toContain('+ throwontimeout 0.15, add 0.15');
    const pronoun = resolveAndExpand('what happens to it then?', history, sp, names);
    expect(pronoun.question).toBe('what happens to the task then?');
    expect(weights(pronoun)).toEqual({ throwontimeout: 0.15, add: 0.15 });
    // QUEUE_SIZE_LIMIT is three everyday words to the index; "item(s)" is a plural; "timeout" is no name.
    expect(Object.keys(weights(pronoun))).not.toContain('queue');
    // Not a name the question already holds; none for a kept turn; none at weight 0.
    expect(weights(resolveAndExpand('what does add do then?', history, sp, names))).not.toHaveProperty('add');
    expect(resolveAndExpand('How do I set throwOnTimeout for one task?', history, sp, names).query.terms).toEqual([]);
    expect(weights(resolveAndExpand('what happens to it then?', history, sp, { ...names, answerNameWeight: 0 }))).toEqual({});
    // At most maxTerms history words and names, first mention first.
    expect(resolveAndExpand('what happens to it then?', history, sp, { ...names, maxTerms: 1 }).query.terms.map((t) => t.term)).toEqual(['throwontimeout']);
    // An answer with no code in it (a CAsT conversation) changes nothing.
    const prose = [{ user: history[0]?.user ?? '', assistant: 'Yes: a task can be given a time limit, and it fails when the time runs out (U.S. rules, e.g. J.C. Penney).' }];
    expect(weights(resolveAndExpand('and what is the default?', prose, sp, names))).toEqual({ task: 0.5 });
  });

  it('a condensed question adds the previous question\'s everyday words at half its weight, after the names; not those it holds, not a "thanks" in between, none for a kept turn or at weight 0', () => {
    const sp = specific({ idb: 0.9 });
    const history = [{ user: 'How do I read all the records in a store with idb?', assistant: 'Call getAll() on the store.' }];
    const weights = (q: ReturnType<typeof resolveAndExpand>) => Object.fromEntries(q.query.terms.map((t) => [t.term, t.weight]));
    // "records", "store", "read" name nothing specific, so HQE leaves them out; a follow-up continues them.
    const topic = resolveAndExpand('can I get just the first ten?', history, sp);
    expect(topic.decision.reason).toBe('implicit-topic');
    expect(topic.query.terms).toEqual([{ term: 'idb', weight: 0.5 }, { term: 'getall', weight: 0.15 }, { term: 'read', weight: 0.15 }, { term: 'records', weight: 0.15 }, { term: 'store', weight: 0.15 }]);
    expect(topic.reason).toContain('(as context); + getall 0.15, read 0.15, records 0.15, store 0.15');
    // Not a word the question holds; the question before a "thanks!"; nothing for a question kept as typed.
    expect(weights(resolveAndExpand('how do I sort the records then?', history, sp))).not.toHaveProperty('records');
    expect(weights(resolveAndExpand('can I get just the first ten?', [...history, { user: 'thanks!', assistant: 'You are welcome.' }], sp))).toMatchObject({ read: 0.15, records: 0.15, store: 0.15 });
    expect(resolveAndExpand('How do I delete a database with idb?', history, sp).query.terms).toEqual([]);
    expect(weights(resolveAndExpand('can I get just the first ten?', history, sp, { previousWordWeight: 0 }))).toEqual({ idb: 0.5, getall: 0.15 });
    expect(weights(resolveAndExpand('can I get just the first ten?', history, sp, { previousWordWeight: 0.1 }))).toMatchObject({ records: 0.1 });
  });

  it('identifiers as documentation writes them ("CORRUPT_INDEX", "onModelMismatch") are names: a later "it" can mean one', () => {
    const s = withNames(() => 0.1, ['what does CORRUPT_INDEX mean?', 'and onModelMismatch?']);
    expect(s('corrupt_index')).toBeGreaterThanOrEqual(0.5);
    expect(s('onmodelmismatch')).toBeGreaterThanOrEqual(0.5);
    expect(s('two-factor')).toBe(0.1);
    const history = [{ user: 'what errors can load() throw?', assistant: '' }, { user: 'what does CORRUPT_INDEX mean?', assistant: '' }];
    expect(resolveAndExpand('how do I fix it?', history, specific({ errors: 0.3, load: 0.3, throw: 0.2, fix: 0.1 })).question).toBe('how do I fix CORRUPT_INDEX?');
  });

  it('a function written as code calls it ("start()", "clear()") is a name, everyday as its word is; a word in parentheses is not', () => {
    const s = withNames(() => 0.1, ['until I call start()?', 'will q.clear() wipe it?', 'the queue (start) here']);
    expect(s('start')).toBeGreaterThanOrEqual(0.5);
    expect(s('clear')).toBeGreaterThanOrEqual(0.5);
    expect(s('queue')).toBe(0.1);
    // So a question that names one stands alone.
    const everyday = specific({ stop: 0.1, queue: 0.2, starting: 0.1, tasks: 0.1, call: 0.1, start: 0.1 });
    expect(resolveAndExpand('How do I stop the queue from starting tasks until I call start()?', [{ user: 'How do I wait for the queue?', assistant: '' }], everyday).decision.action).toBe('keep');
  });

  it('a compound the index holds only as parts ("p-queue": p, queue) is as specific as its most specific part, so the user’s own phrase is a topic', () => {
    // As specificityFrom: a word the index does not hold scores 0.
    const words: Record<string, number> = { p: 0.05, queue: 0.1, pause: 0.2, execution: 0.3, hold: 0.2, paused: 0.2, check: 0.1, start: 0.2, resumes: 0.2 };
    const sp: Specificity = (w) => words[w.toLowerCase()] ?? 0;
    const history = [{ user: 'Can I pause a p-queue?', assistant: '.pause() puts execution on hold, and .start() resumes it.' }];
    expect(withNames(sp, [])('p-queue')).toBe(0.1);
    // Scored 0 as one word, "p-queue" was no topic, and "it" fell back to the answer's phrases ("pause").
    expect(resolveAndExpand('how do I check whether it is paused?', history, sp).question).toBe('how do I check whether the p-queue is paused?');
  });

  it('acronyms and codes are names wherever they stand ("2FA", "CCD"); "OK" is no name', () => {
    const s = withNames(() => 0, ['I also want to turn on 2FA', 'CCD is what?', 'OK. Why?']);
    expect(s('2fa')).toBeGreaterThanOrEqual(0.5);
    expect(s('ccd')).toBeGreaterThanOrEqual(0.5);
    expect(s('ok')).toBe(0);
    expect(gateBySpecificity('I also want to turn on 2FA', true, withNames(() => 0, ['I also want to turn on 2FA'])).action).toBe('keep');
  });
});

describe('npm run eval on a set without a corpus', () => {
  it('reports the gate and term resolution, and no ranking metrics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-eval-'));
    const turn = (id: string, user: string, rewrite: string, kind: string) => ({ id, user, rewrite, assistant: '', gold: [], kind });
    writeFileSync(join(dir, 'conversations.jsonl'), `${JSON.stringify({ id: 'c1', turns: [
      turn('c1-1', 'What is throat cancer?', 'What is throat cancer?', 'first'),
      turn('c1-2', 'Is it treatable?', 'Is throat cancer treatable?', 'followup'),
      turn('c1-3', 'Tell me about lung cancer.', 'Tell me about lung cancer.', 'standalone'),
    ] })}\n`);
    const report = await evaluate({ data: dir, strategies: ['raw', 'rules', 'expand', 'oracle'] });
    expect(report.corpus).toBe(false);
    expect(report.specificity).toBe('vocabulary-prior');
    expect(report.strategies.expand?.kinds).toBeUndefined();
    expect(report.strategies.oracle?.terms.f1).toBe(1);
    expect(report.strategies.expand?.terms.r).toBe(1); // "it" → "throat cancer"
    expect(report.turns.find((t) => t.id === 'c1-2')?.question).toBe('Is throat cancer treatable?');
    expect(report.gate).toMatchObject({ keptFirst: 1, condensedFollowup: 1, changedStandalone: 0 });
    expect(report.gateRules).toMatchObject({ keptFirst: 1 });
    // A gate that was not run is not reported (it once read as "keeps every turn, condenses none").
    const rawOnly = await evaluate({ data: dir, strategies: ['raw'] });
    expect(rawOnly.gate).toBeUndefined();
    expect(rawOnly.gateRules).toBeUndefined();
  });

  it('a pronoun resolved in an earlier turn counts as a mention: the entity the conversation returns to outranks a facet asked once', () => {
    const s = specific({ cubesats: 0.8, orbits: 0.6 });
    const history = [{ user: 'What are Cubesats?', assistant: '' }, { user: 'What are their orbits?', assistant: '' }];
    expect(rankTopics(history, s)[0]?.phrase).toBe('orbits'); // the typed turns alone favour the latest facet
    expect(resolveHistory(history, s)[1]?.user).toBe('What are their orbits? (Cubesats)');
    expect(resolveAndExpand('What are they used for?', history, s).question).toBe('What are Cubesats used for?');
  });

  it('an antecedent taken from an answer is no mention: guesses must not reinforce themselves', () => {
    const s = specific({ hematoma: 0.9, infection: 0.6 });
    const history = [{ user: 'My dog has an infection.', assistant: '' }, { user: 'How dangerous could these be?', assistant: 'A hematoma is a pocket of blood.' }];
    expect(resolveHistory(history, s)[1]?.user).toBe('How dangerous could these be? (infection)');
    const answerOnly = [{ user: 'Tell me more.', assistant: 'A hematoma is a pocket of blood.' }, { user: 'Is it painful?', assistant: '' }];
    expect(resolveHistory(answerOnly, s)[1]?.user).toBe('Is it painful?');
  });
});
