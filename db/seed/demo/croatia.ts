// ---------------------------------------------------------------------------
// Croatian reference data

// [city, postal code, phone area code, streets]
export const CITIES: ReadonlyArray<readonly [string, string, string, readonly string[]]> = [
  ['Zagreb', '10000', '1', ['Ilica', 'Savska cesta', 'Radnička cesta', 'Heinzelova ulica', 'Ulica grada Vukovara', 'Slavonska avenija', 'Zagrebačka avenija']],
  ['Split', '21000', '21', ['Domovinskog rata', 'Poljička cesta', 'Ulica Ruđera Boškovića', 'Put Supavla', 'Vukovarska ulica']],
  ['Rijeka', '51000', '51', ['Riva', 'Ulica Milutina Barača', 'Zvonimirova ulica', 'Krešimirova ulica', 'Ulica Franje Čandeka']],
  ['Osijek', '31000', '31', ['Europska avenija', 'Vukovarska cesta', 'Ulica Hrvatske Republike', 'Ulica Svetog Roka']],
  ['Zadar', '23000', '23', ['Ulica Ivana Mažuranića', 'Put Murvice', 'Ulica Bartula Kašića', 'Obala kneza Branimira']],
  ['Pula', '52100', '52', ['Istarska ulica', 'Flanatička ulica', 'Ulica Giardini', 'Šijanska cesta']],
  ['Varaždin', '42000', '42', ['Zagrebačka ulica', 'Optujska ulica', 'Ulica Vladimira Nazora', 'Koprivnička ulica']],
  ['Karlovac', '47000', '47', ['Ulica Ivana Meštrovića', 'Banija', 'Vukovarska ulica']],
  ['Slavonski Brod', '35000', '35', ['Ulica Petra Krešimira IV.', 'Trg pobjede', 'Ulica dr. Ante Starčevića']],
  ['Šibenik', '22000', '22', ['Stjepana Radića', 'Ulica kralja Zvonimira', 'Put groblja']],
  ['Dubrovnik', '20000', '20', ['Vukovarska ulica', 'Ulica dr. Ante Starčevića', 'Obala Stjepana Radića']],
  ['Sisak', '44000', '44', ['Ulica kralja Tomislava', 'Rimska ulica', 'Capraška ulica']],
  ['Čakovec', '40000', '40', ['Ulica bana Josipa Jelačića', 'Zrinsko-Frankopanska ulica', 'Ulica Matice hrvatske']],
  ['Vukovar', '32000', '32', ['Ulica Josipa Jurja Strossmayera', 'Ulica Dr. Franje Tuđmana']],
  ['Koprivnica', '48000', '48', ['Ulica Ante Starčevića', 'Ulica Pavla Sudete', 'Zrinski trg']],
  ['Bjelovar', '43000', '43', ['Ulica Petra Preradovića', 'Ulica Ivana Viteza Trnskog']],
  ['Velika Gorica', '10410', '1', ['Zagrebačka ulica', 'Ulica kneza Ljudevita Posavskog']],
  ['Samobor', '10430', '1', ['Ulica Andrije Hebranga', 'Perkovčeva ulica']],
  ['Požega', '34000', '34', ['Ulica Matije Gupca', 'Vukovarska ulica']],
  ['Virovitica', '33000', '33', ['Ulica Ljudevita Gaja', 'Ulica Matije Gupca']],
  ['Gospić', '53000', '53', ['Ulica budačka', 'Ulica dr. Franje Tuđmana']],
];

// The client companies and their home cities.
export const CLIENT_COMPANIES: ReadonlyArray<readonly [string, string]> = [
  ['Jadran Logistika d.o.o.', 'Split'],
  ['Panonija Agrar d.o.o.', 'Osijek'],
  ['Dalmacija Građenje d.o.o.', 'Split'],
  ['Kvarner Ambalaža d.o.o.', 'Rijeka'],
  ['Istra Vina d.o.o.', 'Pula'],
  ['Zagorje Metal d.o.o.', 'Varaždin'],
  ['Sava Elektro d.o.o.', 'Zagreb'],
  ['Velebit Drvo d.o.o.', 'Gospić'],
  ['Slavonija Mlin d.d.', 'Slavonski Brod'],
  ['Medvednica Soft d.o.o.', 'Zagreb'],
  ['Lika Prijevoz d.o.o.', 'Karlovac'],
  ['Neretva Voće d.o.o.', 'Dubrovnik'],
  ['Adria Tekstil d.o.o.', 'Zadar'],
  ['Biokovo Kamen d.o.o.', 'Split'],
  ['Drava Plast d.o.o.', 'Koprivnica'],
  ['Krka Energija d.o.o.', 'Šibenik'],
  ['Podravina Hrana d.d.', 'Koprivnica'],
  ['Učka Turizam d.o.o.', 'Rijeka'],
  ['Posavina Strojevi d.o.o.', 'Sisak'],
  ['Mreža Informatika d.o.o.', 'Zagreb'],
  ['Kantrida Brodoservis d.o.o.', 'Rijeka'],
  ['Vukovar Žitarice d.o.o.', 'Vukovar'],
  ['Međimurje Obuća d.o.o.', 'Čakovec'],
  ['Bilogora Med d.o.o.', 'Bjelovar'],
  ['Kornati Ribarstvo d.o.o.', 'Zadar'],
  ['Sljeme Gradnja d.o.o.', 'Zagreb'],
  ['Cetina Beton d.o.o.', 'Split'],
  ['Papuk Namještaj d.o.o.', 'Požega'],
  ['Pelješac Vinarija d.o.o.', 'Dubrovnik'],
  ['Kupa Transport d.o.o.', 'Karlovac'],
  ['Lonja Eko Energija d.o.o.', 'Sisak'],
  ['Brijuni Marine d.o.o.', 'Pula'],
  ['Viro Drvna Industrija d.o.o.', 'Virovitica'],
  ['Samoborsko Staklo d.o.o.', 'Samobor'],
  ['Turopolje Logistika d.o.o.', 'Velika Gorica'],
  ['Mosor Tiskara d.o.o.', 'Split'],
  ['Baranja Farm d.o.o.', 'Osijek'],
  ['Marjan Digital d.o.o.', 'Split'],
  ['Korana Catering d.o.o.', 'Karlovac'],
  ['Trsat Farmacija d.o.o.', 'Rijeka'],
];

export const CUSTOMER_ROOTS = [
  'Adria',
  'Agro',
  'Alpe',
  'Bura',
  'Dinara',
  'Dunav',
  'Jelsa',
  'Kalnik',
  'Kamenjak',
  'Kordun',
  'Lastovo',
  'Lovor',
  'Maslina',
  'Mirna',
  'Mura',
  'Omiš',
  'Pag',
  'Plješivica',
  'Ravni kotari',
  'Sunce',
  'Sutla',
  'Una',
  'Vis',
  'Zrinski',
  'Žumberak',
  'Hvar',
  'Brač',
  'Korčula',
  'Dilj',
  'Psunj',
];
export const CUSTOMER_TRADES = [
  'Trgovina',
  'Distribucija',
  'Gradnja',
  'Promet',
  'Servis',
  'Market',
  'Inženjering',
  'Opskrba',
  'Energetika',
  'Ugostiteljstvo',
  'Hoteli',
  'Prerada',
  'Proizvodnja',
  'Montaža',
  'Instalacije',
];
export const LEGAL_FORMS = ['d.o.o.', 'd.o.o.', 'd.o.o.', 'd.o.o.', 'd.d.', 'j.d.o.o.'];

export const FIRST_NAMES = [
  'Ana',
  'Marko',
  'Ivana',
  'Luka',
  'Petra',
  'Tomislav',
  'Maja',
  'Ivan',
  'Josip',
  'Marija',
  'Nikola',
  'Katarina',
  'Stjepan',
  'Lucija',
  'Mario',
  'Martina',
  'Dario',
  'Sanja',
  'Goran',
  'Iva',
  'Krešimir',
  'Jelena',
  'Zoran',
  'Tea',
  'Hrvoje',
  'Mirela',
  'Damir',
  'Vesna',
  'Ante',
  'Kristina',
];
export const LAST_NAMES = [
  'Horvat',
  'Kovačević',
  'Babić',
  'Marić',
  'Jurić',
  'Novak',
  'Kovačić',
  'Knežević',
  'Vuković',
  'Marković',
  'Petrović',
  'Matić',
  'Tomić',
  'Pavlović',
  'Božić',
  'Blažević',
  'Grgić',
  'Pavić',
  'Radić',
  'Perić',
  'Šimić',
  'Lovrić',
  'Filipović',
  'Vidović',
  'Klarić',
  'Bošnjak',
  'Mikulić',
  'Šarić',
];

// Bank codes (VBDI) of Croatian banks, for IBANs.
export const BANK_CODES = ['2340009', '2360000', '2484008', '2402006', '2390001', '2407000', '2500009'];

export const MONTHS = ['siječanj', 'veljača', 'ožujak', 'travanj', 'svibanj', 'lipanj', 'srpanj', 'kolovoz', 'rujan', 'listopad', 'studeni', 'prosinac'];

export const REJECTION_REASONS = [
  'Kupac osporava isporuku – otvorena reklamacija.',
  'Faktura je već ustupljena drugom faktoru.',
  'Nepotpuna dokumentacija: nedostaje otpremnica potpisana od kupca.',
  'Kupac ima blokiran račun (FINA).',
  'Rok dospijeća dulji od 120 dana nije predmet ugovora.',
  'Iznos fakture ne odgovara narudžbenici.',
];

export const BLOCKAGE_REASONS = [
  'Račun blokiran temeljem rješenja Porezne uprave o ovrsi.',
  'Blokada po osnovi neplaćenih obveza prema dobavljačima (FINA, očevidnik redoslijeda osnova za plaćanje).',
  'Ovrha na temelju vjerodostojne isprave – račun u blokadi duže od 60 dana.',
];

// [description, KPD code, unit code, unit price range in cents]
export const LINE_ITEMS: ReadonlyArray<readonly [string, string, string, number, number]> = [
  ['Usluga cestovnog prijevoza robe', '49.41.19', 'KMT', 90, 180],
  ['Usluga skladištenja', '52.10.19', 'DAY', 1500, 9000],
  ['Paleta drvena EUR 1200×800', '16.24.11', 'H87', 900, 1600],
  ['Građevinski radovi – zidanje', '43.99.90', 'MTK', 2500, 6000],
  ['Beton C25/30', '23.63.10', 'MTQ', 8000, 12000],
  ['Programiranje i održavanje aplikacije', '62.01.11', 'HUR', 3500, 7500],
  ['Kartonska ambalaža', '17.21.13', 'H87', 40, 300],
  ['Pšenično brašno T-550', '10.61.21', 'KGM', 45, 90],
  ['Uredski namještaj – radni stol', '31.01.12', 'H87', 18000, 42000],
  ['Usluga ugostiteljstva – catering', '56.21.19', 'C62', 1200, 3500],
];

export const ADVANCE_RATES = ['70.00', '75.00', '80.00', '80.00', '80.00', '85.00', '90.00'];
export const FEE_RATES = ['1.000', '1.250', '1.500', '1.500', '1.750', '2.000', '2.250', '2.500'];

// Weights in percent (integers, so the automatic score is computed exactly).
export const RISK_FACTORS: ReadonlyArray<readonly [string, number]> = [
  ['paymentHistory', 30],
  ['daysPastDue', 20],
  ['accountBlockages', 15],
  ['concentration', 10],
  ['companyAge', 10],
  ['financials', 15],
];

export function riskCategory(score: number): 'low' | 'medium' | 'high' {
  return score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high';
}

export function asciiSlug(text: string): string {
  return text
    .replace(/đ/g, 'dj')
    .replace(/Đ/g, 'Dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b(d\.o\.o\.|j\.d\.o\.o\.|d\.d\.)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
