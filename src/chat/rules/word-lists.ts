/**
 * General English word lists for the gate and the rules condenser, written
 * here from grammar, not harvested from any evaluation data.
 */
const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Pronouns that point back at something named earlier. */
export const ANAPHORIC_PRONOUNS = words(`it its itself they them their theirs themselves he him his himself she her hers herself`);
/** Pronouns that mean one person: their antecedent is a name. */
export const PERSONAL_PRONOUNS = words(`he him his himself she her hers herself`);
/** Pronouns and demonstratives that need a plural antecedent. */
export const PLURAL_PRONOUNS = words(`they them their theirs themselves these those`);

/** Demonstratives: pointing words that need a referent. */
export const DEMONSTRATIVES = words(`this that these those`);

/** Nouns after "this"/"that" that make a time expression, not a reference. */
export const TIME_NOUNS = words(`year week month time morning afternoon evening weekend season quarter day night summer winter spring autumn fall decade century moment`);

/** Words that, after "it is"/"is it", make "it" a dummy subject. */
export const EXPLETIVE_IT_COMPLEMENTS = words(`possible true necessary ok okay fine worth safe legal illegal normal common better best hard easy difficult likely unlikely important required allowed free raining snowing late early too there`);

/** Auxiliaries and modal verbs. */
export const AUXILIARIES = words(`is are was were be been being am do does did done have has had having can could will would shall should may might must 's 're 've 'd 'll isn aren wasn weren don doesn didn haven hasn hadn can't won't cannot`);

/** Words that open a noun phrase ("the", "my", "each", "one"): what follows them is a noun phrase, never a verb. */
export const DETERMINERS = words(`the a an my your our their its his her this that these those some any every each no one`);

/** Auxiliaries that put their subject after them in a question ("does X …", "can X …"): do-support and the modals. */
export const QUESTION_AUXILIARIES = words(`do does did can could will would shall should may might must`);

/** Question words. */
export const WH_WORDS = words(`what which who whom whose when where why how`);

/** Prepositions and conjunctions after which "that" is a pronoun, not a relative. */
export const FUNCTION_WORDS = words(`about with for of in on to at from by into onto than like as and or but if so because after before since until over under between without within during through against`);

/** Frequent verbs: they break noun phrases in the topic tracker. */
export const COMMON_VERBS = words(`
  be is are was were been being am do does did done doing have has had having get gets got getting make makes made making
  take takes took taken taking go goes went gone going come comes came coming see sees saw seen know knows knew known think
  thinks thought say says said tell tells told give gives gave given find finds found use uses used using want wants wanted
  need needs needed work works worked working seem seems seemed feel feels felt try tries tried leave leaves left call calls
  called keep keeps kept let lets begin begins began show shows showed shown hear heard play plays played run runs ran move
  moves moved live lives lived believe believes bring brings brought happen happens happened write writes wrote written
  provide provides provided sit stand lose loses lost pay pays paid meet include includes included continue set sets learn
  learns learned change changes changed lead leads led understand understands watch follow follows stop stops create creates
  created speak read allow allows allowed add adds added spend spends spent grow grows grew open opens opened walk win offer
  offers offered remember love consider considers appear appears buy buys bought wait serve serves die dies died send sends
  sent expect expects build builds built stay stays fall falls cut reach kill remain remains suggest raise pass sell sells sold
  require requires required report decide pull cause causes caused affect affects affected cost costs mean means meant
  happen occur occurs develop develops help helps helped compare differ differs treat treated prevent start starts started
  explain describe recommend recommended return returns returned fix fixes fixed carry carries carried arrive arrives arrived
  contain contains contained cover covers covered receive receives received apply applies applied protect protects
  sound sounds sounded look looks looked seem eat eats ate eaten drink drinks drank sleep sleeps slept talk talks talked
  ask asks asked answer answers answered mention mentioned heard avoid avoids avoided
  laid held sought fled withdrawn arisen dealt driven fallen forgotten hidden proven risen shaken shrunk spoken stolen sworn thrown
  woken chosen forbidden forgiven gotten grown begun ridden spoke threw drew flew chose froze stole forgot hid shook broke drove
  caught taught fought understood lent
  become becomes became becoming get gets
  can could will would shall should may might must
`);

/** Comparatives and superlatives that need something to compare. */
export const COMPARATIVES = words(`better worse best worst cheaper cheapest faster fastest slower slowest bigger biggest smaller smallest larger largest longer longest shorter shortest easier easiest harder hardest safer safest newer newest older oldest more less most least higher highest lower lowest stronger strongest weaker weakest healthier healthiest cheaper cheaper pricier priciest quicker quickest`);

/** Whole messages that are greetings, thanks or acknowledgements. */
export const SMALLTALK = words(`hi hello hey hiya howdy greetings yo morning evening afternoon thanks thank thx ty cheers ok okay k kk sure great cool nice perfect awesome excellent good fine alright right yes yeah yep yup no nope nah bye goodbye later cya got it understood gotcha lovely wonderful brilliant appreciated appreciate much lot so very you that helps helpful noted makes sense sounds`);

/** Opening phrases that announce a new topic. */
export const TOPIC_SWITCH = /^(?:now|ok(?:ay)?|alright|next|new question|(?:a )?different question|another question|unrelated(?: question)?|switching (?:topics?|gears)|changing (?:the )?(?:subject|topic)|by the way|btw|on another note|separately|moving on|different topic|also unrelated)\b[\s,.:;!-]*/i;

/** The words of a repair before its remnant ("I meant", "I mean", "I meant to ask about"): a pattern's source. */
export const REPAIR = String.raw`i\s+(?:meant|mean)(?:\s+to\s+(?:ask|say))?(?:\s+about)?`;

/**
 * Openings that continue the previous question with a fragment ("what about X?"), and a repair of it
 * ("No, I meant for lobular.", "Sorry, I meant to ask about the Plus plan."): what the user meant in place of
 * what was understood, a remnant like "what about X?"'s. Not "I mean, what is X?" or "I meant to ask how …",
 * a question of its own.
 */
export const ELLIPSIS_OPENERS = new RegExp(String.raw`^(?:(?:(?:no|nope|sorry|oh|but|actually|well)[\s,.!]+)?${REPAIR}(?![\s,:;-]*(?:(?:it|that|this|so|well)[\s.!?]*$|(?:to\s+(?:ask|say)|what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\b))|(?:and |but |so |ok(?:ay)? |also )?(?:what|how) about|what of|how 'bout|same (?:for|with|about|goes for)|the same (?:for|with)|what else about|more (?:on|about) (?:that|this|it)|as well as|and also|and|but|also|or|plus)\b`, 'i');

/** Whole messages that only make sense as a follow-up ("why?", "tell me more"). */
export const BARE_FOLLOWUPS = /^(?:why|why not|how so|how come|really|seriously|and then|then what|what else|anything else|is there anything else|tell me more|more|go on|such as|like what|for example|example|examples|and|so)\W*$/i;

/** Interjections ("Wow! What will happen?"): rare in any index, and they name nothing. */
export const INTERJECTIONS = words('wow oh ah aha hmm hmmm huh whoa yikes gosh oops ouch yay yeah yep nope um uh er meh lol ugh');

/** Number and ordinal words, nouns too vague to be a topic on their own, and interjections. */
export const NON_TOPIC_WORDS: ReadonlySet<string> = new Set([...INTERJECTIONS, ...words(`many much few several various numerous one ones two three four five six seven eight nine ten first second third fourth fifth last next other others
  thing things stuff something anything everything nothing someone anyone everyone way ways lot lots kind kinds sort sorts bit
  part parts place places time times year years day days question questions answer answers example examples idea ideas
  sure yes no okay cool interesting really great nice awesome amazing well fascinating like instead anyway too also either
  dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt cant couldnt wont wouldnt shouldnt im ive youre theyre thats whats
  never ever always often sometimes usually still already soon even anymore almost today yesterday tomorrow tonight nowadays
  earlier later afterwards beforehand recently lately once twice thrice again`)]);

/**
 * Nouns that name an aspect of something rather than a thing ("the main
 * advantages", "its health effects"): a phrase headed by one is what a
 * question asked about its topic, never the topic a later pronoun means.
 */
export const ASPECT_NOUNS = words(`type types kinds effect effects impact impacts role roles advantage advantages disadvantage disadvantages
  benefit benefits drawback drawbacks difference differences similarity similarities feature features cause causes factor factors
  option options pros cons use uses risk risks symptom symptoms characteristic characteristics property properties level levels`);

/** Prepositions the search stopwords leave in (they are rare enough to index): never part of a topic phrase. */
export const PREPOSITIONS = words(`behind across among amongst toward towards upon beyond beneath despite via around along within without
  throughout near onto underneath besides except unlike per amid inside outside`);

/** Heads of names that name a place, an institution or a thing, never a person "he" or "she" means. */
export const NO_PERSON_HEADS: ReadonlySet<string> = new Set(['club', 'company', 'corporation', 'inc', 'ltd', 'university', 'college', 'school', 'academy', 'institute', 'church', 'cathedral', 'city', 'county', 'state', 'states', 'country', 'kingdom', 'republic', 'river', 'lake', 'mountain', 'island', 'street', 'avenue', 'road', 'house', 'museum', 'park', 'party', 'band', 'team', 'hotel', 'restaurant', 'airport', 'bank', 'foundation', 'council', 'agency', 'department', 'ministry', 'army', 'navy', 'war', 'act', 'law', 'festival', 'games', 'olympics', 'award', 'prize', 'center', 'centre', 'station', 'bridge', 'tower', 'empire', 'movement', 'project', 'experiment', 'program', 'programme', 'system', 'disease', 'syndrome']);

/** Forms of "be" that open a yes/no question or a predicate ("is that safe?", "Was the disruption widespread?"). */
export const COPULAS: ReadonlySet<string> = new Set(['is', 'was', 'are', 'were', "isn't", "wasn't", "aren't", "weren't"]);
