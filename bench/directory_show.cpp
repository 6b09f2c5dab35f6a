#include "directory_show.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <map>
#include <span>
#include <vector>

#include "podcrawl/feed/parser.hpp"
#include "podcrawl/html/sanitize.hpp"

// The made-up directory. Each language is a table of words and sentence patterns; a show picks
// from its language's table with a random stream of its own. Patterns name their slots in braces:
// {a} a qualifier, {n} a subject, {p} a place, {h} a person, {t} a topic, {k} a number.

namespace podcrawl::bench {
namespace {

using Words = std::span<const std::string_view>;

struct Language {
  int weight;              // share of the directory, in percent
  Words declared_tags;     // <language> as feeds spell it
  Words show_titles;       // patterns
  Words qualifiers;        // {a}
  Words subjects;          // {n}
  Words places;            // {p}
  Words people;            // {h}, and the shows' authors
  Words topics;            // {t}
  Words show_sentences;    // patterns of the show's description
  Words episode_titles;    // patterns
  Words episode_sentences; // patterns of an episode's description
  std::string_view more;   // the link text "more" of a description
};

// ---- English ----
constexpr std::string_view k_en_tags[] = {"en", "en-US", "en-us", "en-GB", "EN", "en_US", "en-AU"};
constexpr std::string_view k_en_titles[] = {
    "The {a} {n} Show", "{n} with {h}", "{a} {n} from {p}", "The {p} {n} Podcast",
    "{h}'s {a} {n}",    "{a} {n}: {t}", "{n} Hour in {p}",  "Inside {n} with {h}"};
constexpr std::string_view k_en_qualifiers[] = {
    "Daily",  "Weekly",    "Curious",   "Modern", "Hidden", "Late Night", "Quiet",
    "Brave",  "Little",    "Open",      "Honest", "Slow",   "Big",        "Wild",
    "Sunday", "Deep Dive", "Practical", "Lucky",  "Golden", "Unfiltered"};
constexpr std::string_view k_en_subjects[] = {
    "Tech",    "History",   "Kitchen", "Money",  "Science",  "Football", "Garden",
    "Startup", "Parenting", "Film",    "Poetry", "Crime",    "Space",    "Design",
    "Music",   "Health",    "Travel",  "Books",  "Politics", "Code"};
constexpr std::string_view k_en_places[] = {
    "London", "Chicago",    "Dublin", "Toronto",  "Austin",  "Sydney",  "Cape Town", "Seattle",
    "Boston", "Manchester", "Denver", "Auckland", "Glasgow", "Nairobi", "Portland",  "Atlanta"};
constexpr std::string_view k_en_people[] = {
    "Sarah Mitchell", "James O'Connor", "Priya Patel", "Marcus Johnson", "Emily Chen",
    "David Okafor",   "Laura Schmidt",  "Tom Walker",  "Aisha Rahman",   "Ben Carter",
    "Olivia Brown",   "Noah Williams",  "Grace Kim",   "Liam Murphy"};
constexpr std::string_view k_en_topics[] = {
    "the future of work", "open source software", "urban gardening",   "ancient Rome",
    "personal finance",   "the science of sleep", "indie games",       "climate and energy",
    "the Premier League", "jazz records",         "raising teenagers", "small business",
    "cold cases",         "space exploration",    "mental health",     "street food"};
constexpr std::string_view k_en_show_sentences[] = {
    "A weekly conversation about {t} for curious people.",
    "{h} talks with guests from {p} about {t}.",
    "Stories, interviews and the occasional rant about {t}.",
    "Every episode is short, honest and about {t}.",
    "Join us as we dig into {t}, one question at a time.",
    "Independent and listener supported since 2016."};
constexpr std::string_view k_en_episode_titles[] = {
    "Episode {k}: {t}", "#{k} – {t}", "{t} (with {h})",    "What we got wrong about {t}",
    "{t}, part {k}",    "Q&A: {t}",   "Live from {p}: {t}"};
constexpr std::string_view k_en_episode_sentences[] = {
    "This week we talk about {t}.", "{h} joins us to discuss {t}.",
    "Listener questions about {t}, and what comes next.", "We revisit {t} with new evidence.",
    "Recorded live in {p}."};

// ---- Arabic ----
constexpr std::string_view k_ar_tags[] = {"ar", "ar-SA", "ar-EG", "ar-sa", "AR", "ar-AE"};
constexpr std::string_view k_ar_titles[] = {"بودكاست {n} {a}", "حديث {n} مع {h}", "{n} من {p}",
                                            "مقهى {n} في {p}", "دفاتر {n} {a}",   "{n} {a} مع {h}"};
constexpr std::string_view k_ar_qualifiers[] = {"اليومي", "الأسبوعي", "الجديد", "الحر",
                                                "الصغير", "الكبير",   "الهادئ", "المفتوح",
                                                "الذكي",  "العربي",   "الحديث", "الليلي"};
constexpr std::string_view k_ar_subjects[] = {
    "التقنية", "التاريخ", "المطبخ", "الاقتصاد", "العلوم",        "كرة القدم", "الأدب",    "السينما",
    "الصحة",   "السفر",   "الكتب",  "السياسة",  "ريادة الأعمال", "الفلسفة",   "الموسيقى", "الشعر"};
constexpr std::string_view k_ar_places[] = {"القاهرة",       "بيروت",      "الرياض", "عمّان",
                                            "الدار البيضاء", "تونس",       "دبي",    "بغداد",
                                            "الدوحة",        "الإسكندرية", "مسقط",   "الخرطوم"};
constexpr std::string_view k_ar_people[] = {
    "محمد العلي",   "فاطمة الزهراء", "أحمد حسن",  "ليلى خالد",     "يوسف منصور",
    "سارة إبراهيم", "عمر الفاروق",   "نور الهدى", "خالد عبد الله", "ريم سعيد"};
constexpr std::string_view k_ar_topics[] = {"مستقبل العمل",     "البرمجيات مفتوحة المصدر",
                                            "تاريخ الأندلس",    "الادخار والاستثمار",
                                            "علم النوم",        "الألعاب المستقلة",
                                            "الطاقة والمناخ",   "الدوري المصري",
                                            "موسيقى الطرب",     "تربية الأبناء",
                                            "المشاريع الصغيرة", "استكشاف الفضاء",
                                            "الصحة النفسية",    "الطعام الشعبي"};
constexpr std::string_view k_ar_show_sentences[] = {
    "حوار أسبوعي عن {t} لكل من يحب الاستطلاع.", "يستضيف {h} ضيوفاً من {p} للحديث عن {t}.",
    "قصص ومقابلات عن {t}.", "حلقات قصيرة وصادقة عن {t}.",
    "بودكاست مستقل يدعمه المستمعون منذ ٢٠١٧."};
constexpr std::string_view k_ar_episode_titles[] = {"الحلقة {k}: {t}", "#{k} - {t}", "{t} مع {h}",
                                                    "{t}، الجزء {k}", "أسئلة المستمعين: {t}"};
constexpr std::string_view k_ar_episode_sentences[] = {
    "نتحدث هذا الأسبوع عن {t}.", "ينضم إلينا {h} لمناقشة {t}.", "أسئلة المستمعين حول {t}.",
    "سُجّلت الحلقة في {p}."};

// ---- Spanish ----
constexpr std::string_view k_es_tags[] = {"es", "es-ES", "es-MX", "es-419", "es-es", "es-AR"};
constexpr std::string_view k_es_titles[] = {"{n} {a}",           "El podcast de {n} {a}",
                                            "{n} con {h}",       "Historias de {n} en {p}",
                                            "Café y {n} en {p}", "{n} {a}: {t}"};
constexpr std::string_view k_es_qualifiers[] = {
    "al Día",  "sin Filtro",  "en Serio", "para Todos", "de Medianoche", "en Voz Alta",
    "a Fondo", "de Bolsillo", "con Café", "sin Prisa",  "en Corto",      "de Domingo"};
constexpr std::string_view k_es_subjects[] = {
    "Tecnología", "Historia", "Cocina",  "Dinero", "Ciencia", "Fútbol", "Jardinería", "Cine",
    "Poesía",     "Crimen",   "Espacio", "Diseño", "Música",  "Salud",  "Viajes",     "Libros"};
constexpr std::string_view k_es_places[] = {
    "Madrid",   "Ciudad de México", "Buenos Aires", "Bogotá",      "Sevilla", "Lima",
    "Santiago", "Valencia",         "Montevideo",   "Guadalajara", "Quito",   "Barcelona"};
constexpr std::string_view k_es_people[] = {"María González", "José Martínez", "Lucía Fernández",
                                            "Carlos Ruiz",    "Ana López",     "Javier Torres",
                                            "Sofía Ramírez",  "Diego Herrera"};
constexpr std::string_view k_es_topics[] = {"el futuro del trabajo",
                                            "el software libre",
                                            "la huerta urbana",
                                            "la Roma antigua",
                                            "las finanzas personales",
                                            "la ciencia del sueño",
                                            "los videojuegos independientes",
                                            "la energía y el clima",
                                            "la Liga",
                                            "el bolero y el jazz",
                                            "la crianza",
                                            "los pequeños negocios",
                                            "la exploración espacial",
                                            "la salud mental",
                                            "la comida callejera"};
constexpr std::string_view k_es_show_sentences[] = {
    "Una conversación semanal sobre {t} para gente curiosa.",
    "{h} conversa con invitados de {p} sobre {t}.", "Historias, entrevistas y opiniones sobre {t}.",
    "Episodios breves y sinceros sobre {t}.", "Un podcast independiente desde 2018."};
constexpr std::string_view k_es_episode_titles[] = {"Episodio {k}: {t}", "#{k} – {t}",
                                                    "{t} (con {h})", "{t}, parte {k}",
                                                    "Preguntas de la audiencia: {t}"};
constexpr std::string_view k_es_episode_sentences[] = {
    "Esta semana hablamos de {t}.", "{h} nos acompaña para hablar de {t}.",
    "Respondemos sus preguntas sobre {t}.", "Grabado en directo en {p}."};

// ---- Portuguese (mostly Brazil) ----
constexpr std::string_view k_pt_tags[] = {"pt-BR", "pt-br", "pt", "pt_BR", "pt-PT", "PT-BR"};
constexpr std::string_view k_pt_titles[] = {"{n} {a}",           "Podcast de {n} {a}",
                                            "{n} com {h}",       "Histórias de {n} em {p}",
                                            "Café e {n} em {p}", "{n} {a}: {t}"};
constexpr std::string_view k_pt_qualifiers[] = {
    "em Dia",   "sem Filtro", "a Sério",    "para Todos",   "de Bolso", "em Voz Alta",
    "com Café", "sem Pressa", "de Domingo", "na Madrugada", "no Ponto", "ao Vivo"};
constexpr std::string_view k_pt_subjects[] = {
    "Tecnologia", "História", "Cozinha", "Dinheiro", "Ciência", "Futebol", "Jardinagem", "Cinema",
    "Poesia",     "Crime",    "Espaço",  "Design",   "Música",  "Saúde",   "Viagens",    "Livros"};
constexpr std::string_view k_pt_places[] = {
    "São Paulo", "Rio de Janeiro", "Belo Horizonte", "Salvador", "Recife",   "Porto Alegre",
    "Curitiba",  "Fortaleza",      "Lisboa",         "Manaus",   "Brasília", "Porto"};
constexpr std::string_view k_pt_people[] = {"João Silva",     "Ana Souza",     "Pedro Oliveira",
                                            "Mariana Costa",  "Lucas Pereira", "Beatriz Santos",
                                            "Rafael Almeida", "Camila Rocha"};
constexpr std::string_view k_pt_topics[] = {
    "o futuro do trabalho",  "o software livre",  "a horta urbana",         "a Roma antiga",
    "as finanças pessoais",  "a ciência do sono", "os jogos independentes", "energia e clima",
    "o Brasileirão",         "a bossa nova",      "a criação dos filhos",   "os pequenos negócios",
    "a exploração espacial", "a saúde mental",    "a comida de rua"};
constexpr std::string_view k_pt_show_sentences[] = {
    "Uma conversa semanal sobre {t} para gente curiosa.",
    "{h} conversa com convidados de {p} sobre {t}.", "Histórias, entrevistas e opiniões sobre {t}.",
    "Episódios curtos e sinceros sobre {t}.", "Um podcast independente desde 2019."};
constexpr std::string_view k_pt_episode_titles[] = {"Episódio {k}: {t}", "#{k} – {t}",
                                                    "{t} (com {h})", "{t}, parte {k}",
                                                    "Perguntas dos ouvintes: {t}"};
constexpr std::string_view k_pt_episode_sentences[] = {
    "Nesta semana falamos sobre {t}.", "{h} se junta a nós para falar de {t}.",
    "Respondemos às perguntas sobre {t}.", "Gravado ao vivo em {p}."};

// ---- French ----
constexpr std::string_view k_fr_tags[] = {"fr", "fr-FR", "fr-fr", "fr-CA", "FR", "fr-BE"};
constexpr std::string_view k_fr_titles[] = {"{n} {a}",        "Le podcast {n} {a}",
                                            "{n} avec {h}",   "Histoires de {n} à {p}",
                                            "Café {n} à {p}", "{n} {a} : {t}"};
constexpr std::string_view k_fr_qualifiers[] = {
    "au Quotidien", "sans Filtre", "pour Tous", "à Voix Haute", "de Poche",   "en Vrai",
    "du Dimanche",  "sans Détour", "de Minuit", "en Bref",      "à la Loupe", "en Direct"};
constexpr std::string_view k_fr_subjects[] = {
    "Tech",   "Histoire", "Cuisine", "Argent", "Sciences", "Football", "Jardin", "Cinéma",
    "Poésie", "Polar",    "Espace",  "Design", "Musique",  "Santé",    "Voyage", "Lectures"};
constexpr std::string_view k_fr_places[] = {"Paris",     "Lyon",   "Marseille", "Montréal",
                                            "Bruxelles", "Genève", "Dakar",     "Abidjan",
                                            "Toulouse",  "Nantes", "Lille",     "Québec"};
constexpr std::string_view k_fr_people[] = {"Camille Dubois", "Julien Martin", "Léa Bernard",
                                            "Hugo Lefèvre",   "Chloé Moreau",  "Antoine Girard",
                                            "Inès Benali",    "Mathieu Roux"};
constexpr std::string_view k_fr_topics[] = {
    "l'avenir du travail",    "le logiciel libre",         "le potager urbain",
    "la Rome antique",        "les finances personnelles", "la science du sommeil",
    "les jeux indépendants",  "l'énergie et le climat",    "la Ligue 1",
    "la chanson française",   "l'éducation des enfants",   "les petites entreprises",
    "l'exploration spatiale", "la santé mentale",          "la cuisine de rue"};
constexpr std::string_view k_fr_show_sentences[] = {
    "Une conversation hebdomadaire sur {t} pour les curieux.",
    "{h} reçoit des invités de {p} pour parler de {t}.",
    "Des récits, des entretiens et quelques coups de gueule sur {t}.",
    "Des épisodes courts et sincères sur {t}.", "Un podcast indépendant depuis 2017."};
constexpr std::string_view k_fr_episode_titles[] = {
    "Épisode {k} : {t}", "#{k} – {t}", "{t} (avec {h})", "{t}, partie {k}", "Vos questions : {t}"};
constexpr std::string_view k_fr_episode_sentences[] = {
    "Cette semaine, nous parlons de {t}.", "{h} nous rejoint pour parler de {t}.",
    "Vos questions sur {t}, et la suite.", "Enregistré en public à {p}."};

// ---- German ----
constexpr std::string_view k_de_tags[] = {"de", "de-DE", "de-de", "de-AT", "de-CH", "DE"};
constexpr std::string_view k_de_titles[] = {"{n} {a}",     "Der {n}-Podcast {a}",
                                            "{n} mit {h}", "Geschichten aus {p}: {n}",
                                            "{n} aus {p}", "{n} {a}: {t}"};
constexpr std::string_view k_de_qualifiers[] = {
    "am Abend",      "ohne Filter",   "für alle",    "im Gespräch", "kompakt",    "unter der Lupe",
    "auf den Punkt", "zum Frühstück", "von nebenan", "ganz nah",    "am Sonntag", "live"};
constexpr std::string_view k_de_subjects[] = {"Technik",      "Geschichte", "Küche",    "Geld",
                                              "Wissenschaft", "Fußball",    "Garten",   "Kino",
                                              "Lyrik",        "Krimi",      "Weltraum", "Design",
                                              "Musik",        "Gesundheit", "Reisen",   "Bücher"};
constexpr std::string_view k_de_places[] = {"Berlin", "Hamburg", "München", "Wien",
                                            "Zürich", "Köln",    "Leipzig", "Dresden",
                                            "Graz",   "Bremen",  "Basel",   "Stuttgart"};
constexpr std::string_view k_de_people[] = {"Anna Müller",     "Lukas Schneider", "Lena Fischer",
                                            "Jonas Weber",     "Marie Wagner",    "Felix Becker",
                                            "Sophie Hoffmann", "Paul Schäfer"};
constexpr std::string_view k_de_topics[] = {"die Zukunft der Arbeit",
                                            "freie Software",
                                            "Gärtnern in der Stadt",
                                            "das alte Rom",
                                            "private Finanzen",
                                            "die Wissenschaft vom Schlaf",
                                            "Indie-Spiele",
                                            "Energie und Klima",
                                            "die Bundesliga",
                                            "Jazzplatten",
                                            "Erziehung",
                                            "kleine Unternehmen",
                                            "die Raumfahrt",
                                            "seelische Gesundheit",
                                            "Straßenessen"};
constexpr std::string_view k_de_show_sentences[] = {
    "Ein wöchentliches Gespräch über {t} für neugierige Menschen.",
    "{h} spricht mit Gästen aus {p} über {t}.",
    "Geschichten, Interviews und gelegentlich eine Meinung über {t}.",
    "Kurze, ehrliche Folgen über {t}.", "Unabhängig und hörerfinanziert seit 2015."};
constexpr std::string_view k_de_episode_titles[] = {"Folge {k}: {t}", "#{k} – {t}", "{t} (mit {h})",
                                                    "{t}, Teil {k}", "Hörerfragen: {t}"};
constexpr std::string_view k_de_episode_sentences[] = {
    "Diese Woche geht es um {t}.", "{h} ist zu Gast und spricht über {t}.",
    "Eure Fragen zu {t} und wie es weitergeht.", "Live aufgenommen in {p}."};

// ---- Japanese ----
constexpr std::string_view k_ja_tags[] = {"ja", "ja-JP", "ja-jp", "jp", "JA"};
constexpr std::string_view k_ja_titles[] = {"{a}{n}ラジオ", "{p}の{n}話", "{h}の{n}タイム",
                                            "{a}{n}研究所", "{n}と{p}",   "{a}{n}ナイト"};
constexpr std::string_view k_ja_qualifiers[] = {"ゆるい",   "真夜中の", "ほぼ毎日の",
                                                "週末の",   "やさしい", "本気の",
                                                "ちいさな", "ひみつの", "まったり"};
constexpr std::string_view k_ja_subjects[] = {
    "テクノロジー", "歴史", "料理", "お金", "科学",     "サッカー", "映画",   "読書",
    "音楽",         "健康", "旅",   "宇宙", "デザイン", "落語",     "アニメ", "ゲーム"};
constexpr std::string_view k_ja_places[] = {"東京",   "大阪", "京都", "札幌", "福岡",
                                            "名古屋", "横浜", "神戸", "那覇", "仙台"};
constexpr std::string_view k_ja_people[] = {"田中 花子", "佐藤 健",   "鈴木 一郎", "高橋 美咲",
                                            "伊藤 翔",   "渡辺 由美", "山本 大輔", "中村 さくら"};
constexpr std::string_view k_ja_topics[] = {
    "これからの働き方", "オープンソース",   "ベランダ菜園",     "古代ローマ",
    "家計と投資",       "睡眠の科学",       "インディーゲーム", "エネルギーと気候",
    "Jリーグ",          "ジャズのレコード", "子育て",           "スモールビジネス",
    "宇宙開発",         "メンタルヘルス",   "屋台めし"};
constexpr std::string_view k_ja_show_sentences[] = {
    "{t}について毎週ゆるく話す番組です。", "{h}が{p}からゲストを迎えて{t}を語ります。",
    "{t}をめぐる物語とインタビュー。", "短くて正直な{t}の話。",
    "2018年から続く独立系ポッドキャスト。"};
constexpr std::string_view k_ja_episode_titles[] = {
    "第{k}回：{t}", "#{k} {t}", "{t}（ゲスト：{h}）", "{t} その{k}", "おたより回：{t}"};
constexpr std::string_view k_ja_episode_sentences[] = {
    "今週のテーマは{t}です。", "{h}さんをお迎えして{t}について話しました。",
    "リスナーの皆さんからの{t}に関する質問にお答えします。", "{p}で公開収録しました。"};

// ---- Russian ----
constexpr std::string_view k_ru_tags[] = {"ru", "ru-RU", "ru-ru", "RU"};
constexpr std::string_view k_ru_titles[] = {"{n} {a}", "Подкаст «{n}» {a}", "{n} с {h}",
                                            "{n}: истории из {p}", "{n} {a}: {t}"};
constexpr std::string_view k_ru_qualifiers[] = {"без фильтров",  "для всех",    "по-честному",
                                                "на ночь",       "вслух",       "в деталях",
                                                "за чашкой чая", "по выходным", "с нуля"};
constexpr std::string_view k_ru_subjects[] = {
    "Технологии", "История",   "Кухня",  "Деньги", "Наука",  "Футбол",   "Сад",         "Кино",
    "Поэзия",     "Детективы", "Космос", "Дизайн", "Музыка", "Здоровье", "Путешествия", "Книги"};
constexpr std::string_view k_ru_places[] = {"Москвы",       "Петербурга",    "Казани",
                                            "Новосибирска", "Екатеринбурга", "Самары",
                                            "Перми",        "Владивостока"};
constexpr std::string_view k_ru_people[] = {"Иван Петров",    "Анна Смирнова", "Дмитрий Козлов",
                                            "Елена Попова",   "Сергей Волков", "Ольга Морозова",
                                            "Алексей Новиков"};
constexpr std::string_view k_ru_topics[] = {
    "будущее работы",     "открытое ПО",          "городские огороды",
    "Древний Рим",        "личные финансы",       "науку о сне",
    "инди-игры",          "энергию и климат",     "РПЛ",
    "джазовые пластинки", "воспитание детей",     "малый бизнес",
    "освоение космоса",   "психическое здоровье", "уличную еду"};
constexpr std::string_view k_ru_show_sentences[] = {
    "Еженедельный разговор про {t} для любопытных.", "{h} говорит с гостями из {p} про {t}.",
    "Истории, интервью и мнения про {t}.", "Короткие и честные выпуски про {t}.",
    "Независимый подкаст с 2016 года."};
constexpr std::string_view k_ru_episode_titles[] = {"Выпуск {k}: {t}", "#{k} — {t}",
                                                    "{t} (в гостях {h})", "{t}, часть {k}",
                                                    "Вопросы слушателей: {t}"};
constexpr std::string_view k_ru_episode_sentences[] = {
    "На этой неделе говорим про {t}.", "{h} обсуждает с нами {t}.",
    "Отвечаем на вопросы слушателей про {t}.", "Записано вживую в студии."};

// ---- Hindi ----
constexpr std::string_view k_hi_tags[] = {"hi", "hi-IN", "hi-in"};
constexpr std::string_view k_hi_titles[] = {"{a} {n}", "{n} की बातें {p} से", "{h} के साथ {n}",
                                            "{p} से {n}", "{n} चर्चा: {t}"};
constexpr std::string_view k_hi_qualifiers[] = {"रोज़ाना", "आज की",   "सीधी बात", "खुली",
                                                "रात की", "छोटी सी", "सच्ची",     "नई"};
constexpr std::string_view k_hi_subjects[] = {
    "तकनीक", "इतिहास", "रसोई",  "पैसा",    "विज्ञान",  "क्रिकेट", "सिनेमा",   "किताबें",
    "संगीत",  "सेहत",    "यात्रा", "अंतरिक्ष", "राजनीति", "कविता", "कहानियाँ", "खेल"};
constexpr std::string_view k_hi_places[] = {"दिल्ली", "मुंबई",     "जयपुर",    "लखनऊ", "पटना",
                                            "भोपाल", "कोलकाता", "वाराणसी", "पुणे",   "इंदौर"};
constexpr std::string_view k_hi_people[] = {"राहुल शर्मा", "प्रिया वर्मा", "अमित कुमार", "नेहा गुप्ता",
                                            "विकास सिंह", "अंजलि मिश्रा", "सुरेश यादव",  "पूजा जोशी"};
constexpr std::string_view k_hi_topics[] = {
    "काम का भविष्य",   "ओपन सोर्स सॉफ़्टवेयर", "छत पर बागवानी", "प्राचीन भारत",   "निजी वित्त",
    "नींद का विज्ञान",  "इंडी गेम्स",          "ऊर्जा और जलवायु", "आईपीएल",        "पुराने गाने",
    "बच्चों की परवरिश", "छोटे कारोबार",      "अंतरिक्ष की खोज", "मानसिक स्वास्थ्य", "स्ट्रीट फ़ूड"};
constexpr std::string_view k_hi_show_sentences[] = {
    "{t} पर हर हफ़्ते एक बातचीत।", "{h} {p} के मेहमानों से {t} पर बात करते हैं।",
    "{t} से जुड़ी कहानियाँ और इंटरव्यू।", "{t} पर छोटे और सच्चे एपिसोड।", "2019 से एक स्वतंत्र पॉडकास्ट।"};
constexpr std::string_view k_hi_episode_titles[] = {
    "एपिसोड {k}: {t}", "#{k} – {t}", "{t} ({h} के साथ)", "{t}, भाग {k}", "श्रोताओं के सवाल: {t}"};
constexpr std::string_view k_hi_episode_sentences[] = {
    "इस हफ़्ते हम {t} पर बात करते हैं।", "{h} हमारे साथ {t} पर चर्चा करते हैं।",
    "{t} पर श्रोताओं के सवालों के जवाब।", "{p} में लाइव रिकॉर्ड किया गया।"};

// ---- Chinese, simplified characters (the site's zh-Hans: zh-CN) ----
constexpr std::string_view k_zh_tags[] = {"zh-CN", "zh-cn", "zh", "zh-Hans", "zh-Hans-CN", "zh-SG"};
constexpr std::string_view k_zh_titles[] = {"{a}{n}",   "{n}漫谈 · {p}", "{p}{n}故事",
                                            "{h}聊{n}", "{a}{n}电台",    "{n}{a}：{t}"};
constexpr std::string_view k_zh_qualifiers[] = {"每日", "深夜", "轻松", "认真", "小小",
                                                "周末", "慢慢", "硬核", "随便"};
constexpr std::string_view k_zh_subjects[] = {"科技", "历史", "美食", "理财", "科学", "足球",
                                              "电影", "读书", "音乐", "健康", "旅行", "宇宙",
                                              "设计", "相声", "游戏", "哲学"};
constexpr std::string_view k_zh_places[] = {"北京", "上海", "广州", "深圳", "成都",
                                            "杭州", "台北", "香港", "武汉", "西安"};
constexpr std::string_view k_zh_people[] = {"王伟", "李娜", "张敏", "刘洋",
                                            "陈静", "杨帆", "赵磊", "黄晓明"};
constexpr std::string_view k_zh_topics[] = {"未来的工作", "开源软件", "阳台种菜", "古罗马",
                                            "个人理财",   "睡眠科学", "独立游戏", "能源与气候",
                                            "中超联赛",   "爵士唱片", "育儿",     "小生意",
                                            "太空探索",   "心理健康", "街头小吃"};
constexpr std::string_view k_zh_show_sentences[] = {
    "每周一次，聊聊{t}。", "{h}邀请来自{p}的嘉宾聊{t}。", "关于{t}的故事和访谈。",
    "简短而真诚的{t}节目。", "2017年起的独立播客。"};
constexpr std::string_view k_zh_episode_titles[] = {"第{k}期：{t}", "#{k} {t}", "{t}（嘉宾：{h}）",
                                                    "{t}（{k}）", "听众来信：{t}"};
constexpr std::string_view k_zh_episode_sentences[] = {
    "本周我们聊{t}。", "{h}和我们一起讨论{t}。", "回答听众关于{t}的问题。", "在{p}现场录制。"};

// ---- Italian ----
constexpr std::string_view k_it_tags[] = {"it", "it-IT", "it-it"};
constexpr std::string_view k_it_titles[] = {"{n} {a}", "Il podcast di {n} {a}", "{n} con {h}",
                                            "Storie di {n} da {p}", "{n} {a}: {t}"};
constexpr std::string_view k_it_qualifiers[] = {"ogni Giorno",   "senza Filtri", "per Tutti",
                                                "a Voce Alta",   "in Tasca",     "della Domenica",
                                                "di Mezzanotte", "sul Serio"};
constexpr std::string_view k_it_subjects[] = {"Tecnologia", "Storia", "Cucina", "Soldi",
                                              "Scienza",    "Calcio", "Cinema", "Poesia",
                                              "Musica",     "Salute", "Viaggi", "Libri"};
constexpr std::string_view k_it_places[] = {"Roma",    "Milano",  "Napoli",  "Torino",
                                            "Bologna", "Firenze", "Palermo", "Genova"};
constexpr std::string_view k_it_people[] = {"Giulia Rossi", "Marco Bianchi",  "Francesca Russo",
                                            "Luca Romano",  "Chiara Colombo", "Matteo Ricci"};
constexpr std::string_view k_it_topics[] = {"il futuro del lavoro",
                                            "il software libero",
                                            "l'orto in città",
                                            "l'antica Roma",
                                            "la finanza personale",
                                            "la scienza del sonno",
                                            "i videogiochi indipendenti",
                                            "la Serie A",
                                            "la salute mentale",
                                            "il cibo di strada"};
constexpr std::string_view k_it_show_sentences[] = {
    "Una conversazione settimanale su {t} per persone curiose.",
    "{h} parla con ospiti da {p} di {t}.", "Storie e interviste su {t}.",
    "Un podcast indipendente dal 2018."};
constexpr std::string_view k_it_episode_titles[] = {"Puntata {k}: {t}", "#{k} – {t}",
                                                    "{t} (con {h})", "{t}, parte {k}"};
constexpr std::string_view k_it_episode_sentences[] = {"Questa settimana parliamo di {t}.",
                                                       "{h} ci raggiunge per parlare di {t}.",
                                                       "Registrato dal vivo a {p}."};

// ---- Korean ----
constexpr std::string_view k_ko_tags[] = {"ko", "ko-KR", "ko-kr"};
constexpr std::string_view k_ko_titles[] = {"{p}의 {a} {n}", "{n} 이야기 with {h}",
                                            "{h}의 {n} 라디오", "{a} {n} 클럽", "{n} 토크: {t}"};
constexpr std::string_view k_ko_qualifiers[] = {"매일", "심야", "느린",   "솔직한",
                                                "작은", "주말", "진지한", "편안한"};
constexpr std::string_view k_ko_subjects[] = {"기술", "역사", "요리",   "경제", "과학",
                                              "축구", "영화", "책",     "음악", "건강",
                                              "여행", "우주", "디자인", "게임"};
constexpr std::string_view k_ko_places[] = {"서울", "부산", "인천", "대구",
                                            "광주", "제주", "수원", "대전"};
constexpr std::string_view k_ko_people[] = {"김민준", "이서연", "박지훈",
                                            "최수아", "정우진", "강하은"};
constexpr std::string_view k_ko_topics[] = {"미래의 일", "오픈 소스",  "도시 텃밭", "고대 로마",
                                            "재테크",    "수면 과학",  "인디 게임", "K리그",
                                            "정신 건강", "길거리 음식"};
constexpr std::string_view k_ko_show_sentences[] = {
    "{t}에 대한 주간 대화.", "{h}가 {p}의 게스트와 {t}을 이야기합니다.",
    "{t}에 관한 이야기와 인터뷰.", "2020년부터 이어온 독립 팟캐스트."};
constexpr std::string_view k_ko_episode_titles[] = {"{k}화: {t}", "#{k} {t}", "{t} (게스트: {h})",
                                                    "{t} {k}부"};
constexpr std::string_view k_ko_episode_sentences[] = {"이번 주에는 {t}에 대해 이야기합니다.",
                                                       "{h}와 함께 {t}을 이야기했습니다.",
                                                       "{p}에서 공개 녹음했습니다."};

// ---- Chinese, traditional characters (the site's zh-Hant: zh-TW) ----
constexpr std::string_view k_zht_tags[] = {"zh-TW", "zh-tw", "zh-Hant", "zh-Hant-TW", "zh-HK"};
constexpr std::string_view k_zht_titles[] = {"{a}{n}",   "{n}漫談 · {p}", "{p}{n}故事",
                                             "{h}聊{n}", "{a}{n}電台",    "{n}{a}：{t}"};
constexpr std::string_view k_zht_qualifiers[] = {"每日", "深夜", "輕鬆", "認真", "小小",
                                                 "週末", "慢慢", "硬派", "隨興"};
constexpr std::string_view k_zht_subjects[] = {"科技", "歷史", "美食", "理財", "科學", "棒球",
                                               "電影", "讀書", "音樂", "健康", "旅行", "宇宙",
                                               "設計", "相聲", "遊戲", "哲學"};
constexpr std::string_view k_zht_places[] = {"台北", "台中", "高雄", "台南", "新竹",
                                             "花蓮", "香港", "澳門", "基隆", "嘉義"};
constexpr std::string_view k_zht_people[] = {"林志明", "陳怡君", "張家豪", "黃淑芬",
                                             "王建宏", "李雅婷", "吳俊傑", "劉佳穎"};
constexpr std::string_view k_zht_topics[] = {"未來的工作", "開源軟體", "陽台種菜", "古羅馬",
                                             "個人理財",   "睡眠科學", "獨立遊戲", "能源與氣候",
                                             "中華職棒",   "爵士唱片", "育兒",     "小本生意",
                                             "太空探索",   "心理健康", "夜市小吃"};
constexpr std::string_view k_zht_show_sentences[] = {
    "每週一次，聊聊{t}。", "{h}邀請來自{p}的來賓聊{t}。", "關於{t}的故事和訪談。",
    "簡短而真誠的{t}節目。", "2017年起的獨立Podcast。"};
constexpr std::string_view k_zht_episode_titles[] = {"第{k}集：{t}", "#{k} {t}", "{t}（來賓：{h}）",
                                                     "{t}（{k}）", "聽眾來信：{t}"};
constexpr std::string_view k_zht_episode_sentences[] = {
    "本週我們聊{t}。", "{h}和我們一起討論{t}。", "回答聽眾關於{t}的問題。", "在{p}現場錄製。"};

// ---- Turkish ----
constexpr std::string_view k_tr_tags[] = {"tr", "tr-TR", "tr-tr", "TR"};
constexpr std::string_view k_tr_titles[] = {"{a} {n}",         "{n} Sohbetleri",  "{h} ile {n}",
                                            "{n} Durağı: {p}", "{p} {n} Günlüğü", "{a} {n}: {t}"};
constexpr std::string_view k_tr_qualifiers[] = {"Günlük", "Haftalık", "Gece Yarısı", "Filtresiz",
                                                "Sakin",  "Meraklı",  "Küçük",       "Büyük",
                                                "Açık",   "Samimi",   "Yavaş",       "Pazar"};
constexpr std::string_view k_tr_subjects[] = {
    "Teknoloji", "Tarih",    "Mutfak", "Para",    "Bilim", "Futbol", "Bahçe",   "Sinema",
    "Şiir",      "Polisiye", "Uzay",   "Tasarım", "Müzik", "Sağlık", "Seyahat", "Kitap"};
constexpr std::string_view k_tr_places[] = {"İstanbul",   "Ankara",  "İzmir",     "Bursa",
                                            "Antalya",    "Trabzon", "Eskişehir", "Gaziantep",
                                            "Diyarbakır", "Kayseri"};
constexpr std::string_view k_tr_people[] = {"Ayşe Yılmaz",   "Mehmet Demir", "Elif Şahin",
                                            "Mustafa Çelik", "Zeynep Kaya",  "Emre Aydın",
                                            "Selin Öztürk",  "Burak Arslan"};
constexpr std::string_view k_tr_topics[] = {
    "işin geleceği",  "açık kaynak yazılım", "kent bahçeciliği", "Antik Roma",
    "kişisel finans", "uyku bilimi",         "bağımsız oyunlar", "enerji ve iklim",
    "Süper Lig",      "caz plakları",        "çocuk yetiştirme", "küçük işletmeler",
    "uzay keşifleri", "ruh sağlığı",         "sokak lezzetleri"};
constexpr std::string_view k_tr_show_sentences[] = {
    "Meraklı dinleyiciler için {t} üzerine haftalık bir sohbet.",
    "{h}, {p} şehrinden konuklarla {t} hakkında konuşuyor.",
    "{t} üzerine hikâyeler, röportajlar ve yorumlar.", "{t} hakkında kısa ve dürüst bölümler.",
    "2018'den beri bağımsız bir podcast."};
constexpr std::string_view k_tr_episode_titles[] = {"Bölüm {k}: {t}", "#{k} – {t}",
                                                    "{t} (konuk: {h})", "{t}, {k}. kısım",
                                                    "Dinleyici soruları: {t}"};
constexpr std::string_view k_tr_episode_sentences[] = {
    "Bu hafta {t} hakkında konuşuyoruz.", "{h} bizimle {t} üzerine sohbet ediyor.",
    "{t} ile ilgili sorularınızı yanıtlıyoruz.", "{p} şehrinde canlı kaydedildi."};

// ---- Polish ----
constexpr std::string_view k_pl_tags[] = {"pl", "pl-PL", "pl-pl", "PL"};
constexpr std::string_view k_pl_titles[] = {"{n} {a}", "Podcast {n} {a}", "{h} — {n}",
                                            "{n}: {p} i okolice", "{n} {a}: {t}"};
constexpr std::string_view k_pl_qualifiers[] = {
    "na Co Dzień", "bez Filtra", "dla Wszystkich", "na Głos",    "po Godzinach",
    "na Serio",    "w Pigułce",  "od Kuchni",      "na Weekend", "o Północy"};
constexpr std::string_view k_pl_subjects[] = {"Technologia", "Historia",    "Kuchnia", "Pieniądze",
                                              "Nauka",       "Piłka Nożna", "Ogród",   "Kino",
                                              "Poezja",      "Kryminał",    "Kosmos",  "Design",
                                              "Muzyka",      "Zdrowie",     "Podróże", "Książki"};
constexpr std::string_view k_pl_places[] = {"Warszawa", "Kraków",   "Wrocław", "Gdańsk",
                                            "Poznań",   "Łódź",     "Lublin",  "Szczecin",
                                            "Katowice", "Białystok"};
constexpr std::string_view k_pl_people[] = {
    "Anna Kowalska",      "Piotr Nowak",        "Katarzyna Wiśniewska", "Tomasz Wójcik",
    "Magdalena Kamińska", "Łukasz Lewandowski", "Agnieszka Zielińska",  "Michał Szymański"};
constexpr std::string_view k_pl_topics[] = {
    "przyszłość pracy",    "wolne oprogramowanie", "miejskie ogrody",   "starożytny Rzym",
    "finanse osobiste",    "nauka o śnie",         "gry niezależne",    "energia i klimat",
    "Ekstraklasa",         "płyty jazzowe",        "wychowanie dzieci", "małe firmy",
    "eksploracja kosmosu", "zdrowie psychiczne",   "jedzenie uliczne"};
constexpr std::string_view k_pl_show_sentences[] = {
    "Cotygodniowa rozmowa dla ciekawych świata. Temat przewodni: {t}.",
    "{h} rozmawia z gośćmi z miasta {p}. Tym razem: {t}.",
    "Historie, wywiady i opinie. W centrum uwagi: {t}.", "Krótkie i szczere odcinki. Temat: {t}.",
    "Niezależny podcast od 2019 roku."};
constexpr std::string_view k_pl_episode_titles[] = {"Odcinek {k}: {t}", "#{k} – {t}",
                                                    "{t} (gość: {h})", "{t}, część {k}",
                                                    "Pytania słuchaczy: {t}"};
constexpr std::string_view k_pl_episode_sentences[] = {
    "W tym tygodniu: {t}.", "Naszym gościem jest {h}, a tematem {t}.",
    "Odpowiadamy na pytania słuchaczy. Temat: {t}.", "Nagrane na żywo, miasto {p}."};

// ---- Indonesian ----
constexpr std::string_view k_id_tags[] = {"id", "id-ID", "id-id", "ID"};
constexpr std::string_view k_id_titles[] = {"{n} {a}",
                                            "Podcast {n} {a}",
                                            "{n} bersama {h}",
                                            "Cerita {n} dari {p}",
                                            "Ngopi dan {n} di {p}",
                                            "{n} {a}: {t}"};
constexpr std::string_view k_id_qualifiers[] = {
    "Harian", "Mingguan", "Tengah Malam", "Tanpa Filter", "Santai",
    "Serius", "Kecil",    "Terbuka",      "Jujur",        "Akhir Pekan"};
constexpr std::string_view k_id_subjects[] = {
    "Teknologi", "Sejarah",  "Dapur",     "Keuangan", "Sains", "Sepak Bola", "Berkebun",    "Film",
    "Puisi",     "Kriminal", "Antariksa", "Desain",   "Musik", "Kesehatan",  "Jalan-Jalan", "Buku"};
constexpr std::string_view k_id_places[] = {"Jakarta", "Bandung",  "Surabaya", "Yogyakarta",
                                            "Medan",   "Makassar", "Denpasar", "Semarang",
                                            "Malang",  "Palembang"};
constexpr std::string_view k_id_people[] = {"Budi Santoso", "Siti Rahayu",    "Agus Wijaya",
                                            "Dewi Lestari", "Rizky Pratama",  "Putri Anggraini",
                                            "Andi Saputra", "Rina Kusumawati"};
constexpr std::string_view k_id_topics[] = {"masa depan pekerjaan",
                                            "perangkat lunak sumber terbuka",
                                            "berkebun di kota",
                                            "Romawi kuno",
                                            "keuangan pribadi",
                                            "ilmu tentang tidur",
                                            "gim indie",
                                            "energi dan iklim",
                                            "Liga 1",
                                            "piringan hitam jazz",
                                            "mengasuh anak",
                                            "usaha kecil",
                                            "penjelajahan antariksa",
                                            "kesehatan mental",
                                            "jajanan kaki lima"};
constexpr std::string_view k_id_show_sentences[] = {
    "Obrolan mingguan tentang {t} untuk orang-orang yang penasaran.",
    "{h} berbincang dengan tamu dari {p} tentang {t}.", "Cerita, wawancara, dan opini seputar {t}.",
    "Episode singkat dan jujur tentang {t}.", "Podcast independen sejak 2019."};
constexpr std::string_view k_id_episode_titles[] = {
    "Episode {k}: {t}", "#{k} – {t}", "{t} (bersama {h})", "{t}, bagian {k}", "Tanya jawab: {t}"};
constexpr std::string_view k_id_episode_sentences[] = {
    "Minggu ini kita membahas {t}.", "{h} bergabung untuk membicarakan {t}.",
    "Menjawab pertanyaan pendengar tentang {t}.", "Direkam langsung di {p}."};

// ---- Hebrew ----
constexpr std::string_view k_he_tags[] = {"he", "he-IL", "he-il", "HE"};
constexpr std::string_view k_he_titles[] = {"{n} {a}",         "הפודקאסט של {h}", "{n} עם {h}",
                                            "סיפורי {n} מ{p}", "שיחות על {n}",    "{n} {a}: {t}"};
constexpr std::string_view k_he_qualifiers[] = {"בקטנה",     "בלי פילטרים", "לכולם",
                                                "בקול רם",   "עד הסוף",     "של שישי בבוקר",
                                                "אחרי חצות", "על הבוקר"};
constexpr std::string_view k_he_subjects[] = {
    "טכנולוגיה", "היסטוריה", "מטבח", "כסף",   "מדע",    "כדורגל", "גינה",   "קולנוע",
    "שירה",      "פשע",      "חלל",  "עיצוב", "מוזיקה", "בריאות", "טיולים", "ספרים"};
constexpr std::string_view k_he_places[] = {"תל אביב", "ירושלים", "חיפה", "באר שבע",
                                            "אילת",    "נתניה",   "עכו",  "רמת גן"};
constexpr std::string_view k_he_people[] = {"נועה כהן",   "יונתן לוי",  "מיכל מזרחי", "איתי פרץ",
                                            "שירה ביטון", "עומר אברהם", "תמר פרידמן", "אורי שפירא"};
constexpr std::string_view k_he_topics[] = {
    "עתיד העבודה", "קוד פתוח",    "גינון עירוני",  "רומא העתיקה", "כלכלת המשפחה",
    "מדע השינה",   "משחקי אינדי", "אנרגיה ואקלים", "ליגת העל",    "תקליטי ג'אז",
    "גידול ילדים", "עסקים קטנים", "חקר החלל",      "בריאות הנפש", "אוכל רחוב"};
constexpr std::string_view k_he_show_sentences[] = {
    "שיחה שבועית על {t} לסקרנים.", "{h} מארח אורחים מ{p} לשיחה על {t}.",
    "סיפורים, ראיונות ודעות על {t}.", "פרקים קצרים וכנים על {t}.", "פודקאסט עצמאי מאז 2018."};
constexpr std::string_view k_he_episode_titles[] = {"פרק {k}: {t}", "#{k} – {t}", "{t} (עם {h})",
                                                    "{t}, חלק {k}", "שאלות מהמאזינים: {t}"};
constexpr std::string_view k_he_episode_sentences[] = {
    "השבוע אנחנו מדברים על {t}.", "{h} מצטרף אלינו לדבר על {t}.", "עונים על שאלות המאזינים על {t}.",
    "הוקלט בהופעה חיה ב{p}."};

// ---- Persian (ZWNJ inside words, as Persian writes them) ----
constexpr std::string_view k_fa_tags[] = {"fa", "fa-IR", "fa-ir", "FA", "fa-AF"};
constexpr std::string_view k_fa_titles[] = {"پادکست {n} {a}", "{n} با {h}",
                                            "{n} در {p}",     "گفت‌وگوهای {n}",
                                            "کافه {n} {p}",   "{n} {a}: {t}"};
constexpr std::string_view k_fa_qualifiers[] = {"روزانه", "هفتگی",   "شبانه", "بی‌پرده",
                                                "آرام",   "کوچک",    "تازه",  "آزاد",
                                                "صمیمی",  "آخر هفته"};
constexpr std::string_view k_fa_subjects[] = {
    "فناوری", "تاریخ", "آشپزی", "اقتصاد", "علم",    "فوتبال", "باغبانی", "سینما",
    "شعر",    "جنایی", "فضا",   "طراحی",  "موسیقی", "سلامت",  "سفر",     "کتاب"};
constexpr std::string_view k_fa_places[] = {"تهران", "اصفهان", "شیراز", "تبریز", "مشهد",
                                            "رشت",   "کرمان",  "یزد",   "کابل",  "هرات"};
constexpr std::string_view k_fa_people[] = {"علی رضایی", "مریم احمدی", "حسین کریمی", "زهرا محمدی",
                                            "رضا حسینی", "سارا موسوی", "امیر جعفری", "نرگس صادقی"};
constexpr std::string_view k_fa_topics[] = {"آینده‌ی کار",
                                            "نرم‌افزار آزاد",
                                            "باغبانی شهری",
                                            "روم باستان",
                                            "مدیریت مالی شخصی",
                                            "علم خواب",
                                            "بازی‌های مستقل",
                                            "انرژی و اقلیم",
                                            "لیگ برتر",
                                            "صفحه‌های جاز",
                                            "تربیت فرزند",
                                            "کسب‌وکارهای کوچک",
                                            "اکتشاف فضا",
                                            "سلامت روان",
                                            "غذای خیابانی"};
constexpr std::string_view k_fa_show_sentences[] = {
    "گفت‌وگویی هفتگی درباره‌ی {t} برای آدم‌های کنجکاو.",
    "{h} با مهمانانی از {p} درباره‌ی {t} حرف می‌زند.",
    "داستان‌ها، مصاحبه‌ها و نظرهایی درباره‌ی {t}.",
    "قسمت‌های کوتاه و صادقانه درباره‌ی {t}.",
    "پادکستی مستقل از سال ۱۳۹۸."};
constexpr std::string_view k_fa_episode_titles[] = {"قسمت {k}: {t}", "#{k} – {t}", "{t} (با {h})",
                                                    "{t}، بخش {k}",
                                                    "پرسش‌های شنوندگان: {t}"};
constexpr std::string_view k_fa_episode_sentences[] = {
    "این هفته درباره‌ی {t} صحبت می‌کنیم.",
    "{h} به ما می‌پیوندد تا درباره‌ی {t} حرف بزنیم.",
    "به پرسش‌های شنوندگان درباره‌ی {t} پاسخ می‌دهیم.",
    "به‌صورت زنده در {p} ضبط شد."};

// ---- Urdu ----
constexpr std::string_view k_ur_tags[] = {"ur", "ur-PK", "ur-pk", "ur-IN"};
constexpr std::string_view k_ur_titles[] = {"{a} {n}",    "{n} کی باتیں", "{h} کے ساتھ {n}",
                                            "{p} سے {n}", "{n} بیٹھک",    "{n}: {t}"};
constexpr std::string_view k_ur_qualifiers[] = {"روزانہ", "ہفتہ وار", "رات کی", "کھری",
                                                "سیدھی",  "چھوٹی سی", "نئی",    "سچی"};
constexpr std::string_view k_ur_subjects[] = {
    "ٹیکنالوجی", "تاریخ", "کھانا", "پیسہ",   "سائنس",  "کرکٹ", "باغبانی", "فلم",
    "شاعری",     "جرائم", "خلا",   "ڈیزائن", "موسیقی", "صحت",  "سفر",     "کتابیں"};
constexpr std::string_view k_ur_places[] = {"کراچی",     "لاہور", "اسلام آباد", "پشاور",   "ملتان",
                                            "فیصل آباد", "کوئٹہ", "حیدرآباد",   "سیالکوٹ", "لکھنؤ"};
constexpr std::string_view k_ur_people[] = {"عائشہ خان", "احمد رضا",  "فاطمہ علی", "عمران حسین",
                                            "زینب ملک",  "بلال احمد", "ثنا یوسف",  "حمزہ شیخ"};
constexpr std::string_view k_ur_topics[] = {
    "کام کا مستقبل", "اوپن سورس سافٹ ویئر", "چھت پر باغبانی",   "قدیم روم",        "ذاتی مالیات",
    "نیند کی سائنس", "انڈی گیمز",           "توانائی اور موسم", "پاکستان سپر لیگ", "پرانے گانے",
    "بچوں کی تربیت", "چھوٹے کاروبار",       "خلا کی تلاش",      "ذہنی صحت",        "گلی کے کھانے"};
constexpr std::string_view k_ur_show_sentences[] = {
    "{t} پر ہر ہفتے ایک گفتگو۔", "{h} {p} کے مہمانوں کے ساتھ {t} پر بات کرتے ہیں۔",
    "{t} سے جڑی کہانیاں اور انٹرویو۔", "{t} پر مختصر اور سچی اقساط۔", "۲۰۱۹ سے ایک آزاد پوڈکاسٹ۔"};
constexpr std::string_view k_ur_episode_titles[] = {
    "قسط {k}: {t}", "#{k} – {t}", "{t} ({h} کے ساتھ)", "{t}، حصہ {k}", "سامعین کے سوالات: {t}"};
constexpr std::string_view k_ur_episode_sentences[] = {
    "اس ہفتے ہم {t} پر بات کرتے ہیں۔", "{h} ہمارے ساتھ {t} پر گفتگو کرتے ہیں۔",
    "{t} پر سامعین کے سوالوں کے جواب۔", "{p} میں براہ راست ریکارڈ کیا گیا۔"};

// ---- Bengali ----
constexpr std::string_view k_bn_tags[] = {"bn", "bn-BD", "bn-IN", "bn-bd"};
constexpr std::string_view k_bn_titles[] = {"{a} {n}", "{n} আড্ডা", "{h}-এর সাথে {n}",
                                            "{p} থেকে {n}", "{n}: {t}"};
constexpr std::string_view k_bn_qualifiers[] = {"রোজকার", "সাপ্তাহিক", "রাতের", "খোলামেলা",
                                                "ছোট্ট",   "নতুন",      "সত্যি",  "ছুটির দিনের"};
constexpr std::string_view k_bn_subjects[] = {
    "প্রযুক্তি", "ইতিহাস",  "রান্না",  "টাকা", "বিজ্ঞান", "ফুটবল",   "বাগান", "সিনেমা",
    "কবিতা",  "গোয়েন্দা", "মহাকাশ", "নকশা", "গান",    "স্বাস্থ্য", "ভ্রমণ",  "বই"};
constexpr std::string_view k_bn_places[] = {"ঢাকা", "কলকাতা",  "চট্টগ্রাম",     "সিলেট",
                                            "খুলনা", "রাজশাহী", "শান্তিনিকেতন", "বরিশাল"};
constexpr std::string_view k_bn_people[] = {"রহিম উদ্দিন",  "ফারহানা ইসলাম", "সুমন দাস",
                                            "নুসরাত জাহান", "অর্পিতা সেন",    "তানভীর আহমেদ",
                                            "দেবাশীষ রায়", "মৌমিতা ঘোষ"};
constexpr std::string_view k_bn_topics[] = {
    "কাজের ভবিষ্যৎ", "ওপেন সোর্স সফটওয়্যার", "ছাদবাগান",        "প্রাচীন রোম",    "ব্যক্তিগত অর্থ",
    "ঘুমের বিজ্ঞান",  "ইন্ডি গেম",           "জ্বালানি ও জলবায়ু", "বিপিএল",        "পুরোনো গান",
    "সন্তান পালন",   "ছোট ব্যবসা",          "মহাকাশ অভিযান",   "মানসিক স্বাস্থ্য", "রাস্তার খাবার"};
constexpr std::string_view k_bn_show_sentences[] = {
    "{t} নিয়ে প্রতি সপ্তাহে একটি আড্ডা।", "{h} {p} থেকে আসা অতিথিদের সাথে {t} নিয়ে কথা বলেন।",
    "{t} নিয়ে গল্প, সাক্ষাৎকার আর মতামত।", "{t} নিয়ে ছোট আর সৎ পর্ব।",
    "২০১৯ সাল থেকে একটি স্বাধীন পডকাস্ট।"};
constexpr std::string_view k_bn_episode_titles[] = {
    "পর্ব {k}: {t}", "#{k} – {t}", "{t} ({h}-এর সাথে)", "{t}, অংশ {k}", "শ্রোতাদের প্রশ্ন: {t}"};
constexpr std::string_view k_bn_episode_sentences[] = {
    "এই সপ্তাহে আমরা {t} নিয়ে কথা বলছি।", "{h} আমাদের সাথে {t} নিয়ে আলোচনা করেন।",
    "{t} নিয়ে শ্রোতাদের প্রশ্নের উত্তর।", "{p}-এ সরাসরি রেকর্ড করা।"};

#define PODCRAWL_BENCH_LANGUAGE(code, weight, more)                                         \
  Language {                                                                                \
    weight, k_##code##_tags, k_##code##_titles, k_##code##_qualifiers, k_##code##_subjects, \
        k_##code##_places, k_##code##_people, k_##code##_topics, k_##code##_show_sentences, \
        k_##code##_episode_titles, k_##code##_episode_sentences, more                       \
  }

// The 20 languages of the site's locales (zh-Hans written zh-CN, zh-Hant zh-TW); weights add up
// to 100.
const std::array<Language, 20> k_languages = {
    PODCRAWL_BENCH_LANGUAGE(en, 29, "More"),      PODCRAWL_BENCH_LANGUAGE(es, 10, "Más"),
    PODCRAWL_BENCH_LANGUAGE(pt, 8, "Mais"),       PODCRAWL_BENCH_LANGUAGE(fr, 6, "Plus"),
    PODCRAWL_BENCH_LANGUAGE(de, 6, "Mehr"),       PODCRAWL_BENCH_LANGUAGE(ar, 5, "المزيد"),
    PODCRAWL_BENCH_LANGUAGE(ja, 5, "もっと見る"), PODCRAWL_BENCH_LANGUAGE(ru, 4, "Подробнее"),
    PODCRAWL_BENCH_LANGUAGE(zh, 4, "更多"),       PODCRAWL_BENCH_LANGUAGE(zht, 2, "更多"),
    PODCRAWL_BENCH_LANGUAGE(hi, 3, "और पढ़ें"),      PODCRAWL_BENCH_LANGUAGE(id, 3, "Selengkapnya"),
    PODCRAWL_BENCH_LANGUAGE(tr, 3, "Devamı"),     PODCRAWL_BENCH_LANGUAGE(it, 2, "Altro"),
    PODCRAWL_BENCH_LANGUAGE(ko, 2, "더 보기"),    PODCRAWL_BENCH_LANGUAGE(pl, 2, "Więcej"),
    PODCRAWL_BENCH_LANGUAGE(fa, 2, "بیشتر"),      PODCRAWL_BENCH_LANGUAGE(bn, 2, "আরও পড়ুন"),
    PODCRAWL_BENCH_LANGUAGE(ur, 1, "مزید"),       PODCRAWL_BENCH_LANGUAGE(he, 1, "עוד")};

#undef PODCRAWL_BENCH_LANGUAGE

// Apple Podcasts' top-level categories, weighted by how often shows choose them.
struct Weighted {
  std::string_view name;
  int weight;
};
constexpr Weighted k_top_categories[] = {{"Society & Culture", 10},
                                         {"Comedy", 8},
                                         {"News", 8},
                                         {"Education", 8},
                                         {"Business", 7},
                                         {"Health & Fitness", 6},
                                         {"Religion & Spirituality", 6},
                                         {"Arts", 6},
                                         {"Sports", 6},
                                         {"Technology", 6},
                                         {"TV & Film", 4},
                                         {"Music", 4},
                                         {"True Crime", 4},
                                         {"History", 3},
                                         {"Leisure", 3},
                                         {"Kids & Family", 3},
                                         {"Science", 3},
                                         {"Fiction", 2},
                                         {"Government", 1}};
// Their subcategories, which the parser lists after the parent.
constexpr std::string_view k_subcategories[] = {"Tech News",
                                                "Daily News",
                                                "Politics",
                                                "Improv",
                                                "Stand-Up",
                                                "Language Learning",
                                                "Self-Improvement",
                                                "Personal Journals",
                                                "Christianity",
                                                "Islam",
                                                "Buddhism",
                                                "Mental Health",
                                                "Nutrition",
                                                "Football",
                                                "Basketball",
                                                "Soccer",
                                                "Investing",
                                                "Entrepreneurship",
                                                "Film Reviews",
                                                "Video Games",
                                                "Books",
                                                "Design",
                                                "Drama",
                                                "Documentary",
                                                "Philosophy",
                                                "Parenting",
                                                "Relationships",
                                                "Music Commentary",
                                                "Astronomy",
                                                "Natural Sciences"};
// What feeds write besides: plain-category noise, other languages, hobbies.
constexpr std::string_view k_odd_categories[] = {"Podcasts",
                                                 "podcast",
                                                 "General",
                                                 "Misc",
                                                 "Other",
                                                 "Uncategorized",
                                                 "Talk",
                                                 "Talk Radio",
                                                 "Tech & Gadgets",
                                                 "technology",
                                                 "NEWS",
                                                 "Noticias",
                                                 "Actualités",
                                                 "Nachrichten",
                                                 "Notícias",
                                                 "Политика",
                                                 "ニュース",
                                                 "新闻",
                                                 "أخبار",
                                                 "तकनीक",
                                                 "Cultura",
                                                 "Hörspiel",
                                                 "Crime Verdadeiro",
                                                 "Anime",
                                                 "K-Pop",
                                                 "Cricket",
                                                 "Formula 1",
                                                 "Chess",
                                                 "Birdwatching",
                                                 "Ham Radio",
                                                 "Knitting",
                                                 "Sci-Fi & Fantasy",
                                                 "Self Help",
                                                 "Spirituality",
                                                 "Humor",
                                                 "Entretenimiento",
                                                 "Educação",
                                                 "Divertissement",
                                                 "Gesellschaft",
                                                 "Religião",
                                                 "ثقافة",
                                                 "教育",
                                                 "Vinyl",
                                                 "Beekeeping",
                                                 "Urbanism",
                                                 "Open Source",
                                                 "Crypto",
                                                 "Board Games"};

// ---- randomness ----

std::uint64_t mix(std::uint64_t value) {
  // splitmix64's finalizer: every input bit reaches every output bit.
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

// A splitmix64 stream seeded from a few numbers.
class Random {
public:
  Random(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0)
      : m_state(mix(mix(mix(seed) ^ a) ^ b)) {}

  std::uint64_t next() { return mix(m_state += 0x9e3779b97f4a7c15ULL); }
  // Uniform in [0, bound).
  std::int64_t below(std::int64_t bound) {
    return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(bound));
  }
  std::int64_t between(std::int64_t low, std::int64_t high) { return low + below(high - low + 1); }
  bool chance(int percent) { return below(100) < percent; }
  std::string_view pick(Words words) {
    return words[static_cast<std::size_t>(below(static_cast<std::int64_t>(words.size())))];
  }
  std::string hex(int digits) {
    std::string out;
    for (int i = 0; i < digits; ++i) {
      out += "0123456789abcdef"[below(16)];
    }
    return out;
  }

private:
  std::uint64_t m_state;
};

// ---- text ----

// What fills a pattern's slots.
struct Slots {
  std::string_view a, n, p, h, t;
  std::int64_t k = 0;
};

std::string fill(std::string_view pattern, const Slots& slots) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{' || i + 2 >= pattern.size() || pattern[i + 2] != '}') {
      out += pattern[i];
      continue;
    }
    switch (pattern[i + 1]) {
      case 'a':
        out += slots.a;
        break;
      case 'n':
        out += slots.n;
        break;
      case 'p':
        out += slots.p;
        break;
      case 'h':
        out += slots.h;
        break;
      case 't':
        out += slots.t;
        break;
      case 'k':
        out += std::to_string(slots.k);
        break;
      default:
        out.append(pattern.substr(i, 3));
        break;
    }
    i += 2;
  }
  return out;
}

std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
        break;
    }
  }
  return out;
}

// Two different sentences of the patterns, filled and escaped.
std::string two_sentences(Words patterns, const Slots& slots, Random& random) {
  const auto count = static_cast<std::int64_t>(patterns.size());
  const auto first = random.below(count);
  const auto second = (first + 1 + random.below(count - 1)) % count;
  return escaped(fill(patterns[static_cast<std::size_t>(first)], slots)) + " " +
         escaped(fill(patterns[static_cast<std::size_t>(second)], slots));
}

// A link as html::sanitize writes it.
std::string link(const std::string& url, std::string_view text) {
  return "<a href=\"" + escaped(url) + "\" rel=\"" + std::string(html::k_link_rel) + "\">" +
         escaped(text) + "</a>";
}

// The declared spelling as feed::parse_feed stores it, from a one-line feed parsed once per
// spelling: the bench never disagrees with the parser about a tag.
const std::string& canonical_language(std::string_view declared) {
  static const std::map<std::string, std::string, std::less<>> k_canonical = [] {
    std::map<std::string, std::string, std::less<>> canonical;
    for (const Language& language : k_languages) {
      for (const std::string_view tag : language.declared_tags) {
        const std::string bytes = "<rss version=\"2.0\"><channel><title>t</title><language>" +
                                  std::string(tag) + "</language></channel></rss>";
        canonical.emplace(tag, feed::parse_feed(bytes, {}).show.language);
      }
    }
    return canonical;
  }();
  return k_canonical.find(declared)->second;
}

// What the parser's language detection finds in a language's text: a feed without <language>,
// all of the language's sentences and titles filled with its first words, parsed once per
// language (empty when the text is too little to tell). Shows declare their language honestly,
// so the parser files each under the declared tag, or under this when none is declared.
const std::string& detected_language(const Language& language) {
  static const std::map<const Language*, std::string> k_detected = [] {
    std::map<const Language*, std::string> detected;
    for (const Language& each : k_languages) {
      const Slots slots{each.qualifiers[0], each.subjects[0], each.places[0],
                        each.people[0],     each.topics[0],   7};
      std::string items;
      for (std::size_t i = 0; i < each.episode_titles.size(); ++i) {
        const Slots episode{{},
                            {},
                            each.places[i % each.places.size()],
                            each.people[i % each.people.size()],
                            each.topics[i % each.topics.size()],
                            static_cast<std::int64_t>(i + 1)};
        std::string notes;
        for (const auto pattern : each.episode_sentences) {
          notes += escaped(fill(pattern, episode)) + " ";
        }
        items += "<item><title>" + escaped(fill(each.episode_titles[i], episode)) +
                 "</title><description>" + escaped(notes) + "</description></item>";
      }
      std::string description;
      for (const auto pattern : each.show_sentences) {
        description += escaped(fill(pattern, slots)) + " ";
      }
      const std::string bytes = "<rss version=\"2.0\"><channel><title>" +
                                escaped(fill(each.show_titles[0], slots)) +
                                "</title><description>" + escaped(description) + "</description>" +
                                items + "</channel></rss>";
      detected.emplace(&each, feed::parse_feed(bytes, {}).show.detected_language.value_or(""));
    }
    return detected;
  }();
  return k_detected.find(&language)->second;
}

std::string padded(std::int64_t number) {
  char text[32];
  std::snprintf(text, sizeof text, "%06lld", static_cast<long long>(number));
  return text;
}

// ---- shows ----

const Language& pick_language(Random& random) {
  std::int64_t roll = random.below(100);
  for (const Language& language : k_languages) {
    if ((roll -= language.weight) < 0) {
      return language;
    }
  }
  return k_languages.front();
}

std::string_view pick_top_category(Random& random) {
  int total = 0;
  for (const auto& category : k_top_categories) {
    total += category.weight;
  }
  std::int64_t roll = random.below(total);
  for (const auto& category : k_top_categories) {
    if ((roll -= category.weight) < 0) {
      return category.name;
    }
  }
  return k_top_categories[0].name;
}

std::vector<std::string> pick_categories(Random& random, const Language& language) {
  const int count = random.chance(45) ? 1 : random.chance(64) ? 2 : 3;
  std::vector<std::string> categories;
  for (int i = 0; i < count; ++i) {
    const auto roll = random.below(100);
    if (i == 0 ? roll < 90 : roll < 30) {
      categories.emplace_back(pick_top_category(random));
    } else if (i > 0 && roll < 80) {
      categories.emplace_back(random.pick(k_subcategories));
    } else if (random.chance(25)) {
      // The longest tail: a category of one place.
      categories.push_back("Local: " + std::string(random.pick(language.places)));
    } else {
      categories.emplace_back(random.pick(k_odd_categories));
    }
  }
  return categories;
}

// How a show publishes, fixed per show.
struct Schedule {
  std::int64_t newest_age = 0; // seconds from the newest episode to `now`
  std::int64_t cadence = 0;    // seconds between episodes
  bool irregular = false;
  std::int64_t typical_duration = 0;
  int first_number = 1; // episode number of the oldest episode in the feed
  bool numbered = false, seasons = false;
  int guid_style = 0;
  int host_style = 0;
};

Schedule pick_schedule(Random& random) {
  Schedule s;
  constexpr std::int64_t k_day = 86'400;
  s.newest_age = random.chance(75) ? random.between(k_day / 2, 21 * k_day)
                                   : random.between(60 * k_day, 1500 * k_day);
  const auto roll = random.below(100);
  s.cadence = roll < 10 ? k_day : roll < 55 ? 7 * k_day : roll < 70 ? 14 * k_day : 30 * k_day;
  s.irregular = roll >= 85;
  constexpr std::int64_t k_minutes[] = {8, 20, 30, 45, 60, 75, 90, 150};
  s.typical_duration = k_minutes[random.below(8)] * 60;
  s.first_number = static_cast<int>(random.chance(40) ? random.between(1, 400) : 1);
  s.numbered = random.chance(30);
  s.seasons = s.numbered && random.chance(50);
  s.guid_style = static_cast<int>(random.below(4));
  s.host_style = static_cast<int>(random.below(4));
  return s;
}

std::string episode_guid(const Schedule& schedule, const std::string& id, std::int64_t number,
                         Random& random) {
  switch (schedule.guid_style) {
    case 0: // a UUID
      return random.hex(8) + "-" + random.hex(4) + "-4" + random.hex(3) + "-a" + random.hex(3) +
             "-" + random.hex(12);
    case 1:
      return "https://show-" + id + ".bench.example/?p=" + std::to_string(number * 37 + 11);
    case 2:
      return "show-" + id + "-episode-" + std::to_string(number);
    default:
      return "Buzzsprout-" + std::to_string(1'000'000 + number * 7919 % 9'000'000);
  }
}

struct EnclosureKind {
  std::string_view extension, type;
  int weight;
};
constexpr EnclosureKind k_enclosures[] = {{"mp3", "audio/mpeg", 85},
                                          {"m4a", "audio/x-m4a", 8},
                                          {"aac", "audio/aac", 2},
                                          {"mp4", "video/mp4", 3},
                                          {"ogg", "audio/ogg", 2}};

std::string enclosure_url(const Schedule& schedule, const std::string& id, std::int64_t number,
                          std::string_view extension, std::int64_t published) {
  const std::string file = std::to_string(number) + "." + std::string(extension);
  switch (schedule.host_style) {
    case 0:
      return "https://traffic.libsyn.example/show-" + id + "/" + file;
    case 1:
      return "https://dts.podtrac.example/redirect.mp3/media.bench.example/show-" + id + "/" + file;
    case 2:
      return "https://anchor.bench.example/s/" + id + "/" + file;
    default:
      return "https://cdn.bench.example/show-" + id + "/" + file +
             "?updated=" + std::to_string(published);
  }
}

feed::Episode make_episode(const ShowSpec& spec, const Language& language, const Schedule& schedule,
                           std::int64_t number, std::int64_t published, Random& random) {
  const std::string id = padded(spec.number);
  const Slots slots{{},
                    {},
                    random.pick(language.places),
                    random.pick(language.people),
                    random.pick(language.topics),
                    number};
  feed::Episode e;
  e.guid = episode_guid(schedule, id, number, random);
  e.title = fill(random.pick(language.episode_titles), slots);
  e.published = published;
  const auto roll = random.below(100);
  const EnclosureKind* kind = &k_enclosures[0];
  for (std::int64_t left = roll; const auto& candidate : k_enclosures) {
    if ((left -= candidate.weight) < 0) {
      kind = &candidate;
      break;
    }
  }
  e.enclosure_url = enclosure_url(schedule, id, number, kind->extension, published);
  e.enclosure_type = kind->type;
  const std::int64_t duration =
      schedule.typical_duration * random.between(70, 130) / 100 + random.below(60);
  if (!random.chance(3)) {
    e.duration_seconds = duration;
  }
  if (!random.chance(5)) {
    e.enclosure_length = duration * (kind->type == "video/mp4" ? 250'000 : 16'000);
  }
  if (random.chance(60)) {
    e.link = "https://show-" + id + ".bench.example/episodes/" + std::to_string(number);
  }
  e.description = "<p>" + two_sentences(language.episode_sentences, slots, random) + "</p>";
  if (random.chance(30)) {
    e.description += "<ul><li>" +
                     link("https://show-" + id + ".bench.example/notes/" + std::to_string(number),
                          language.more) +
                     "</li></ul>";
  }
  if (schedule.numbered) {
    e.episode = static_cast<int>(number);
    if (schedule.seasons) {
      e.season = static_cast<int>((number - 1) / 10 + 1);
    }
  }
  if (random.chance(4)) {
    e.itunes.episode_type = "bonus";
  } else if (random.chance(60)) {
    e.itunes.episode_type = "full";
  }
  if (random.chance(10)) {
    e.image = "https://img.bench.example/show-" + id + "/" + std::to_string(number) + ".jpg";
  }
  return e;
}

void add_show_fields(feed::Show& show, const ShowSpec& spec, const Language& language,
                     Random& random) {
  const std::string id = padded(spec.number);
  const Slots slots{random.pick(language.qualifiers), random.pick(language.subjects),
                    random.pick(language.places), random.pick(language.people),
                    random.pick(language.topics)};
  show.title = fill(random.pick(language.show_titles), slots);
  show.author =
      random.chance(85) ? std::string(slots.h) : std::string(random.pick(language.people));
  show.link = "https://show-" + id + ".bench.example/";
  show.description = "<p>" + two_sentences(language.show_sentences, slots, random) + "</p>";
  if (random.chance(40)) {
    show.description += "<p>" + link(show.link, language.more) + "</p>";
  }
  // A few shows declare no language, or one the parser does not know.
  if (!random.chance(4)) {
    show.language = canonical_language(random.pick(language.declared_tags));
  }
  // As feed::parse_feed settles them: the text's language detected, the declared one in effect.
  const std::string& detected = detected_language(language);
  if (!detected.empty()) {
    show.detected_language = detected;
  }
  show.effective_language = show.language.empty() ? detected : show.language;
  if (random.chance(85)) {
    show.image = "https://img.bench.example/show-" + id + "/cover-3000.jpg";
  }
  const auto roll = random.below(100);
  show.explicit_content = roll < 15   ? std::optional(true)
                          : roll < 75 ? std::optional(false)
                                      : std::nullopt;
  show.categories = pick_categories(random, language);
  if (random.chance(30)) {
    show.podcast_guid = random.hex(8) + "-" + random.hex(4) + "-5" + random.hex(3) + "-8" +
                        random.hex(3) + "-" + random.hex(12);
  }
  show.feed_url = show_feed_url(spec.number);
  show.itunes.owner_name = show.author;
  if (random.chance(50)) {
    show.itunes.owner_email = "hello@show-" + id + ".bench.example";
  }
}

} // namespace

std::string show_feed_url(std::int64_t number) {
  return "https://feeds.bench.example/show-" + padded(number) + ".xml";
}

std::optional<std::int64_t> show_number(std::string_view feed_url) {
  constexpr std::string_view k_prefix = "https://feeds.bench.example/show-";
  constexpr std::string_view k_suffix = ".xml";
  if (!feed_url.starts_with(k_prefix) || !feed_url.ends_with(k_suffix)) {
    return std::nullopt;
  }
  const std::string_view digits =
      feed_url.substr(k_prefix.size(), feed_url.size() - k_prefix.size() - k_suffix.size());
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (error != std::errc() || end != digits.data() + digits.size() || padded(number) != digits) {
    return std::nullopt;
  }
  return number;
}

std::uint64_t pick_order(std::uint64_t seed, std::int64_t number) {
  return Random(seed, static_cast<std::uint64_t>(number), 0xadd).next();
}

feed::Show generate_show(const ShowSpec& spec) {
  Random random(spec.seed, static_cast<std::uint64_t>(spec.number));
  const Language& language = pick_language(random);
  feed::Show show;
  add_show_fields(show, spec, language, random);
  const Schedule schedule = pick_schedule(random);
  show.itunes.type = schedule.seasons ? "serial" : "episodic";

  // Newest first, as feeds list them: the extra episodes, then the ones of the first run.
  const std::int64_t newest_number = schedule.first_number + spec.episodes - 1;
  for (int j = spec.extra_episodes; j >= 1; --j) {
    Random episode_random(spec.seed, static_cast<std::uint64_t>(spec.number),
                          0x100000000ULL + static_cast<std::uint64_t>(j));
    show.episodes.push_back(make_episode(spec, language, schedule, newest_number + j,
                                         spec.now - 3600 + 60 * j, episode_random));
  }
  std::int64_t published = spec.now - schedule.newest_age;
  for (int i = 0; i < spec.episodes; ++i) {
    Random episode_random(spec.seed, static_cast<std::uint64_t>(spec.number),
                          static_cast<std::uint64_t>(i) + 1);
    show.episodes.push_back(make_episode(spec, language, schedule, newest_number - i,
                                         published - published % 60, episode_random));
    const std::int64_t gap = schedule.irregular
                                 ? schedule.cadence * episode_random.between(10, 300) / 100
                                 : schedule.cadence;
    published -= gap + episode_random.between(-3600, 3600);
  }
  return show;
}

} // namespace podcrawl::bench
