import { describe, expect, it } from 'vitest';
import { decide } from '../../src/chat/rules/gate';
import { englishTexts, readsAsEnglish } from '../../src/chat/rules/english';
import { condenseWithRules } from '../../src/chat/rules/rules-condenser';
import type { HistoryTurn } from '../../src/chat/rules/topics';

describe('readsAsEnglish: the phrase rules read English turns only', () => {
  it('tells other languages of five words or more by their lack of English function and everyday words', () => {
    for (const text of ['Wie lange habe ich Zeit, etwas zurückzugeben?', 'Combien de temps ai-je pour retourner un article ?', '¿Cuánto tiempo tengo para devolver algo que compré?', 'Hoe lang heb ik om iets terug te sturen?',
      'Ich habe es in meinem Warenkorb, was kostet der Versand?', 'Quanto tempo ci vuole per il rimborso del mio ordine?', 'Vous avez trente jours à compter de la livraison pour un remboursement complet.']) {
      expect(readsAsEnglish(text), text).toBe(false);
    }
    for (const text of ['How long do I have to return something?', 'What are the symptoms of lobular carcinoma in men?', 'how do I set maxAge in lru-cache without a TTL?', 'Tell me about the Bronze Age collapse.']) {
      expect(readsAsEnglish(text), text).toBe(true);
    }
  });

  it('a turn too short to tell is judged with the rest of the conversation; alone, it counts as English', () => {
    const german = ['Wie lange habe ich Zeit, etwas zurückzugeben?', 'Und bei beschädigten Artikeln?'];
    expect(readsAsEnglish('Und bei beschädigten Artikeln?', german)).toBe(false);
    expect(readsAsEnglish('Tesla Model 3 price')).toBe(true);
    expect(readsAsEnglish('Lobular carcinoma symptoms', ['Tell me about breast cancer.', 'What are its types?'])).toBe(true);
  });

  it('englishTexts answers for a whole conversation what readsAsEnglish answers turn by turn', () => {
    for (const texts of [
      ['Wie lange habe ich Zeit, etwas zurückzugeben?', 'Und bei beschädigten Artikeln?', 'Does it ship to Germany?', 'and Austria?'],
      ['Tell me about breast cancer.', 'What are its types?', 'Lobular carcinoma symptoms', 'Und bei beschädigten Artikeln?'],
      ['ok', 'and?', ''],
    ]) {
      expect(englishTexts(texts)).toEqual(texts.map((t) => readsAsEnglish(t, texts)));
    }
    expect(englishTexts(['Wie lange habe ich Zeit, etwas zurückzugeben?', 'Und bei beschädigten Artikeln?'])).toEqual([false, false]);
  });

  it('an English follow-up after turns in another language takes no phrase of theirs as its topic', () => {
    const history: HistoryTurn[] = [
      { user: 'Wie lange habe ich Zeit, etwas zurückzugeben?', assistant: 'Sie haben 30 Tage ab Lieferung.' },
      { user: 'Und wie lange dauert die Erstattung?', assistant: 'Fünf bis zehn Werktage.' },
    ];
    const question = 'Does it ship to Germany?';
    // Before: "Does Wie lange habe ich ship to Germany?"
    expect(condenseWithRules(question, history, decide(question, true)).question).toBe(question);
  });
});
