/** An OSM tag a business of some industry carries, e.g. ["amenity", "dentist"]. */
export type OsmTag = readonly [key: string, value: string];

const INDUSTRIES: { words: string[]; tags: OsmTag[] }[] = [
  { words: ['dentist', 'dental', 'dental clinic', 'dental practice', 'orthodontist'], tags: [['amenity', 'dentist'], ['healthcare', 'dentist']] },
  { words: ['doctor', 'physician', 'gp', 'general practitioner', 'medical practice', 'family doctor'], tags: [['amenity', 'doctors'], ['healthcare', 'doctor']] },
  { words: ['clinic', 'medical clinic', 'medical center', 'medical centre'], tags: [['amenity', 'clinic'], ['healthcare', 'clinic']] },
  { words: ['hospital'], tags: [['amenity', 'hospital']] },
  { words: ['pharmacy', 'chemist', 'drugstore'], tags: [['amenity', 'pharmacy'], ['shop', 'chemist']] },
  { words: ['physiotherapist', 'physiotherapy', 'physio', 'physical therapist', 'physical therapy'], tags: [['healthcare', 'physiotherapist']] },
  { words: ['psychologist', 'psychotherapist', 'therapist', 'counsellor', 'counselor'], tags: [['healthcare', 'psychotherapist'], ['office', 'psychologist']] },
  { words: ['optician', 'optometrist', 'eye doctor'], tags: [['shop', 'optician'], ['healthcare', 'optometrist']] },
  { words: ['veterinarian', 'vet', 'veterinary', 'animal hospital', 'animal clinic'], tags: [['amenity', 'veterinary']] },
  { words: ['nursing home', 'care home', 'retirement home'], tags: [['amenity', 'nursing_home'], ['social_facility', 'nursing_home']] },
  { words: ['plumber', 'plumbing'], tags: [['craft', 'plumber']] },
  { words: ['electrician', 'electrical contractor', 'electrical'], tags: [['craft', 'electrician']] },
  { words: ['carpenter', 'joiner', 'carpentry'], tags: [['craft', 'carpenter']] },
  { words: ['roofer', 'roofing'], tags: [['craft', 'roofer']] },
  { words: ['painter', 'decorator', 'painting'], tags: [['craft', 'painter']] },
  { words: ['locksmith'], tags: [['craft', 'locksmith'], ['shop', 'locksmith']] },
  { words: ['hvac', 'heating', 'air conditioning', 'heating engineer'], tags: [['craft', 'hvac'], ['craft', 'heating_engineer']] },
  { words: ['builder', 'construction', 'contractor', 'general contractor', 'construction company'], tags: [['craft', 'builder'], ['office', 'construction_company']] },
  { words: ['gardener', 'landscaper', 'landscaping', 'gardening'], tags: [['craft', 'gardener']] },
  { words: ['tiler', 'tiling'], tags: [['craft', 'tiler']] },
  { words: ['glazier', 'glazing'], tags: [['craft', 'glaziery']] },
  { words: ['welder', 'metalwork', 'metal construction'], tags: [['craft', 'metal_construction']] },
  { words: ['tailor', 'alterations'], tags: [['craft', 'tailor'], ['shop', 'tailor']] },
  { words: ['cleaner', 'cleaning', 'cleaning service', 'janitorial'], tags: [['craft', 'cleaning'], ['office', 'cleaning']] },
  { words: ['dry cleaner', 'dry cleaning', 'laundry', 'laundromat'], tags: [['shop', 'dry_cleaning'], ['shop', 'laundry']] },
  { words: ['restaurant', 'diner', 'bistro', 'eatery'], tags: [['amenity', 'restaurant']] },
  { words: ['cafe', 'coffee shop', 'coffee', 'coffeehouse', 'tea room'], tags: [['amenity', 'cafe']] },
  { words: ['bar', 'pub', 'tavern', 'cocktail bar'], tags: [['amenity', 'bar'], ['amenity', 'pub']] },
  { words: ['fast food', 'takeaway', 'take away', 'burger', 'pizza', 'pizzeria', 'kebab'], tags: [['amenity', 'fast_food']] },
  { words: ['ice cream', 'gelato'], tags: [['amenity', 'ice_cream']] },
  { words: ['nightclub', 'disco'], tags: [['amenity', 'nightclub']] },
  { words: ['bakery', 'baker'], tags: [['shop', 'bakery']] },
  { words: ['pastry', 'pastry shop', 'patisserie', 'confectionery', 'cake shop'], tags: [['shop', 'pastry'], ['shop', 'confectionery']] },
  { words: ['butcher', 'butchery'], tags: [['shop', 'butcher']] },
  { words: ['supermarket', 'grocery', 'grocery store', 'grocer', 'convenience store'], tags: [['shop', 'supermarket'], ['shop', 'convenience'], ['shop', 'greengrocer']] },
  { words: ['wine shop', 'liquor store', 'off licence', 'bottle shop'], tags: [['shop', 'alcohol'], ['shop', 'wine']] },
  { words: ['brewery', 'microbrewery'], tags: [['craft', 'brewery']] },
  { words: ['florist', 'flower shop', 'flowers'], tags: [['shop', 'florist']] },
  { words: ['hotel', 'motel'], tags: [['tourism', 'hotel'], ['tourism', 'motel']] },
  { words: ['hostel'], tags: [['tourism', 'hostel']] },
  { words: ['guest house', 'guesthouse', 'bed and breakfast', 'b&b', 'inn'], tags: [['tourism', 'guest_house']] },
  { words: ['holiday rental', 'vacation rental', 'holiday home', 'apartment rental'], tags: [['tourism', 'apartment'], ['tourism', 'chalet']] },
  { words: ['hairdresser', 'hair salon', 'barber', 'barbershop', 'salon'], tags: [['shop', 'hairdresser']] },
  { words: ['beauty salon', 'beauty', 'nail salon', 'nails', 'cosmetics', 'spa'], tags: [['shop', 'beauty'], ['leisure', 'spa']] },
  { words: ['massage'], tags: [['shop', 'massage']] },
  { words: ['tattoo', 'tattoo studio', 'tattoo parlor'], tags: [['shop', 'tattoo']] },
  { words: ['gym', 'fitness', 'fitness center', 'fitness centre', 'fitness studio'], tags: [['leisure', 'fitness_centre']] },
  { words: ['yoga', 'yoga studio', 'pilates'], tags: [['sport', 'yoga'], ['leisure', 'fitness_centre']] },
  { words: ['lawyer', 'attorney', 'law firm', 'solicitor', 'legal'], tags: [['office', 'lawyer']] },
  { words: ['notary', 'notary public'], tags: [['office', 'notary']] },
  { words: ['accountant', 'accounting', 'bookkeeper', 'bookkeeping', 'cpa', 'tax advisor', 'tax adviser'], tags: [['office', 'accountant'], ['office', 'tax_advisor']] },
  { words: ['real estate', 'real estate agent', 'realtor', 'estate agent', 'property agent', 'realty'], tags: [['office', 'estate_agent'], ['shop', 'estate_agent']] },
  { words: ['insurance', 'insurance agent', 'insurance broker'], tags: [['office', 'insurance']] },
  { words: ['financial advisor', 'financial adviser', 'financial planner'], tags: [['office', 'financial_advisor'], ['office', 'financial']] },
  { words: ['bank'], tags: [['amenity', 'bank']] },
  { words: ['architect', 'architecture'], tags: [['office', 'architect']] },
  { words: ['engineer', 'engineering'], tags: [['office', 'engineer']] },
  { words: ['it', 'it services', 'software', 'software company', 'web design', 'web designer', 'web developer'], tags: [['office', 'it']] },
  { words: ['marketing', 'marketing agency', 'advertising', 'advertising agency', 'digital agency'], tags: [['office', 'advertising_agency'], ['office', 'marketing']] },
  { words: ['consultant', 'consulting', 'consultancy'], tags: [['office', 'consulting']] },
  { words: ['coworking', 'coworking space', 'co-working'], tags: [['amenity', 'coworking_space'], ['office', 'coworking']] },
  { words: ['travel agency', 'travel agent'], tags: [['shop', 'travel_agency'], ['office', 'travel_agent']] },
  { words: ['car repair', 'mechanic', 'auto repair', 'garage', 'auto shop'], tags: [['shop', 'car_repair']] },
  { words: ['car dealer', 'car dealership', 'dealership', 'used cars'], tags: [['shop', 'car']] },
  { words: ['car wash'], tags: [['amenity', 'car_wash']] },
  { words: ['tire shop', 'tyre shop', 'tires', 'tyres'], tags: [['shop', 'tyres']] },
  { words: ['car rental', 'car hire'], tags: [['amenity', 'car_rental']] },
  { words: ['gas station', 'petrol station', 'filling station'], tags: [['amenity', 'fuel']] },
  { words: ['taxi', 'cab'], tags: [['amenity', 'taxi'], ['office', 'taxi']] },
  { words: ['driving school'], tags: [['amenity', 'driving_school']] },
  { words: ['school'], tags: [['amenity', 'school']] },
  { words: ['kindergarten', 'preschool', 'nursery school', 'daycare', 'day care', 'childcare'], tags: [['amenity', 'kindergarten'], ['amenity', 'childcare']] },
  { words: ['language school', 'tutoring', 'tutor'], tags: [['amenity', 'language_school']] },
  { words: ['music school', 'music lessons'], tags: [['amenity', 'music_school']] },
  { words: ['bookstore', 'bookshop', 'books'], tags: [['shop', 'books']] },
  { words: ['clothing store', 'clothes', 'clothing', 'boutique', 'fashion'], tags: [['shop', 'clothes'], ['shop', 'boutique']] },
  { words: ['shoe store', 'shoe shop', 'shoes'], tags: [['shop', 'shoes']] },
  { words: ['jeweler', 'jeweller', 'jewelry', 'jewellery'], tags: [['shop', 'jewelry']] },
  { words: ['furniture', 'furniture store'], tags: [['shop', 'furniture']] },
  { words: ['hardware store', 'hardware', 'diy store'], tags: [['shop', 'hardware'], ['shop', 'doityourself']] },
  { words: ['electronics', 'electronics store'], tags: [['shop', 'electronics']] },
  { words: ['mobile phone shop', 'phone shop', 'phone repair'], tags: [['shop', 'mobile_phone']] },
  { words: ['computer shop', 'computer store', 'computer repair'], tags: [['shop', 'computer']] },
  { words: ['bicycle shop', 'bike shop', 'bicycle'], tags: [['shop', 'bicycle']] },
  { words: ['sports shop', 'sporting goods'], tags: [['shop', 'sports']] },
  { words: ['toy store', 'toys'], tags: [['shop', 'toys']] },
  { words: ['pet shop', 'pet store'], tags: [['shop', 'pet']] },
  { words: ['pet grooming', 'dog grooming', 'groomer'], tags: [['shop', 'pet_grooming']] },
  { words: ['kennel', 'dog kennel', 'pet boarding', 'dog boarding', 'cattery'], tags: [['amenity', 'animal_boarding']] },
  { words: ['photographer', 'photography', 'photo studio'], tags: [['craft', 'photographer'], ['shop', 'photo']] },
  { words: ['print shop', 'printing', 'printer', 'copy shop'], tags: [['shop', 'copyshop'], ['craft', 'printer']] },
  { words: ['funeral home', 'funeral director', 'undertaker'], tags: [['shop', 'funeral_directors']] },
  { words: ['event venue', 'wedding venue', 'venue'], tags: [['amenity', 'events_venue']] },
  { words: ['storage', 'self storage'], tags: [['shop', 'storage_rental']] },
];

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower case, no accents, single spaces, each word singular ("Dental Clinics" -> "dental clinic"). */
export function normaliseIndustry(industry: string): string {
  return industry
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim()
    .split(' ')
    .map(singular)
    .join(' ');
}

const BY_PHRASE = new Map<string, OsmTag[]>(
  INDUSTRIES.flatMap(({ words, tags }) => words.map((word) => [normaliseIndustry(word), tags] as const)),
);

/**
 * The OSM tags of an industry: the whole phrase, else its longest known sub-phrase ("emergency
 * plumbers" -> craft=plumber). Empty when the industry is unknown.
 */
export function osmTagsOf(industry: string): OsmTag[] {
  const words = normaliseIndustry(industry).split(' ');
  for (let length = words.length; length > 0; length -= 1) {
    for (let start = 0; start + length <= words.length; start += 1) {
      const tags = BY_PHRASE.get(words.slice(start, start + length).join(' '));
      if (tags) return tags;
    }
  }
  return [];
}

/** The word to look for in names when the industry has no tags: its longest word, singular. */
export function nameWordOf(industry: string): string {
  return normaliseIndustry(industry)
    .split(' ')
    .reduce((longest, word) => (word.length > longest.length ? word : longest), '');
}
