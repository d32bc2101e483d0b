import type { ContentTranslations, TranslatedTexts } from '@readiness/contracts';

/*
 * The sample assessment's texts in Spanish, French, Portuguese and Arabic, every text of `seedContent`
 * translated. Spanish is neutral Latin American with "usted", French uses "vous" with a no-break space before
 * two-part punctuation, Portuguese is Brazilian with "você", Arabic is Modern Standard Arabic. Answers are worded as
 * the English ones are (an action for "What do you do?"), and wording that would name the student's gender is
 * avoided. The downloadable planner stays the English file: files per language are not translated.
 */

type Questions = NonNullable<TranslatedTexts['questions']>;
type QuestionTexts = Questions[string];

/** A question's text, with its options' texts in order (ids as `seedContent` gives them: `q3o1`, `q3o2`, …). */
const q = (id: string, question: string, options: string[] = []): [string, QuestionTexts] => [
  id,
  options.length
    ? { question, options: Object.fromEntries(options.map((text, i) => [`${id}o${i + 1}`, text])) }
    : { question },
];

/** A file-upload question's text and instructions. */
const upload = (id: string, question: string, fileInstructions: string): [string, QuestionTexts] => [
  id,
  { question, fileInstructions },
];

const byId = (questions: Array<[string, QuestionTexts]>): Questions => Object.fromEntries(questions);

const es: TranslatedTexts = {
  title: 'Evaluación de preparación para la educación a distancia',
  description:
    'Compruebe su preparación para estudiar en línea: su acceso a la tecnología, sus habilidades informáticas, sus hábitos de estudio y cómo se comunica en línea.',
  sections: {
    '1': {
      title: 'Acceso a la tecnología',
      description: 'El equipo y la conexión con los que puede contar.',
    },
    '2': {
      title: 'Habilidades informáticas',
      description: 'Las tareas cotidianas que le pedirá un curso en línea.',
    },
    '3': {
      title: 'Hábitos de estudio y gestión del tiempo',
      description: 'Cómo planifica su trabajo y lo mantiene al día.',
    },
    '4': {
      title: 'Comunicación en línea',
      description: 'Trabajar en línea con docentes y compañeros de clase.',
    },
  },
  questions: byId([
    q(
      'q1',
      '¿Tiene una computadora (de escritorio o portátil) que pueda usar para sus estudios todas las semanas?',
    ),
    q('q2', '¿Tiene una conexión a internet confiable en su casa o en otro lugar donde pueda estudiar?'),
    q('q3', '¿Cuál es la conexión mínima para ver clases grabadas sin interrupciones?', [
      'Una conexión móvil con un plan de datos reducido',
      'Una conexión de banda ancha de al menos 5 Mbit/s',
      'Ninguna: las clases se pueden ver sin conexión',
    ]),
    q('q4', '¿Basta con un teléfono para realizar todas las tareas de un curso en línea?'),
    q('q5', 'Debe enviar a su docente un ensayo escrito en un procesador de textos. ¿Qué hace?', [
      'Pegar una captura de pantalla del ensayo en un mensaje',
      'Adjuntar el archivo guardado al mensaje o subirlo al curso',
      'Imprimirlo y enviarlo por correo postal',
    ]),
    q('q6', '¿Sabe crear una carpeta y mover y renombrar archivos en su computadora?'),
    q('q7', 'Una página del curso no carga. ¿Cuál es el mejor primer paso?', [
      'Reinstalar el sistema operativo',
      'Volver a cargar la página y, luego, revisar la conexión o probar con otro navegador',
      'Abandonar la tarea',
    ]),
    upload(
      'q8',
      'Suba un documento breve (PDF, Word o texto) con un párrafo sobre por qué quiere estudiar en línea.',
      'Basta con un párrafo. Formatos aceptados: pdf, doc, docx, txt, jpg, jpeg, png.',
    ),
    q('q9', '¿Puede dedicar al menos 6 horas a la semana a un curso en línea?'),
    q('q10', 'Tiene que entregar un trabajo dentro de dos semanas. ¿Cuándo empieza?', [
      'La noche anterior a la fecha de entrega',
      'Esta semana, en etapas planificadas',
      'Cuando llegue un recordatorio',
    ]),
    upload(
      'q11',
      'Descargue el planificador semanal de estudio, complete una semana realista y súbalo.',
      'Complete una línea por día, guarde el archivo y súbalo aquí.',
    ),
    q('q12', '¿Suele seguir trabajando aunque nadie revise su avance?'),
    q('q13', '¿Dónde estudia mejor?', [
      'En un lugar tranquilo, con pocas interrupciones',
      'Frente al televisor',
      'En cualquier lugar, mientras hace otras cosas',
    ]),
    q('q14', '¿Es aceptable escribirle a un docente todo en mayúsculas cuando tiene prisa?'),
    q('q15', 'No entiende una tarea. ¿Qué hace?', [
      'Esperar a que pase la fecha de entrega',
      'Hacer una pregunta clara en el foro del curso o escribirle al docente',
      'Copiar el trabajo de un compañero',
    ]),
    q('q16', '¿Le resulta cómodo participar en una videollamada con su clase?'),
  ]),
};

const fr: TranslatedTexts = {
  title: 'Évaluation de la préparation à la formation à distance',
  description:
    'Faites le point sur votre préparation aux études en ligne\u00a0: votre accès aux outils numériques, vos compétences informatiques, vos habitudes d’étude et votre façon de communiquer en ligne.',
  sections: {
    '1': {
      title: 'Accès à la technologie',
      description: 'L’équipement et la connexion sur lesquels vous pouvez compter.',
    },
    '2': {
      title: 'Compétences informatiques',
      description: 'Les tâches courantes qu’un cours en ligne vous demande.',
    },
    '3': {
      title: 'Habitudes d’étude et gestion du temps',
      description: 'Comment vous organisez votre travail et suivez le rythme.',
    },
    '4': {
      title: 'Communication en ligne',
      description: 'Travailler en ligne avec les enseignants et les autres étudiants.',
    },
  },
  questions: byId([
    q(
      'q1',
      'Disposez-vous d’un ordinateur (fixe ou portable) que vous pouvez utiliser chaque semaine pour vos études\u00a0?',
    ),
    q(
      'q2',
      'Disposez-vous d’une connexion Internet fiable chez vous ou dans un autre lieu où vous pouvez étudier\u00a0?',
    ),
    q('q3', 'Quelle connexion faut-il au minimum pour regarder des cours enregistrés sans coupure\u00a0?', [
      'Une connexion mobile avec un petit forfait de données',
      'Une connexion haut débit d’au moins 5\u00a0Mbit/s',
      'Aucune connexion\u00a0: les cours peuvent être regardés hors ligne',
    ]),
    q('q4', 'Un téléphone suffit-il à lui seul pour accomplir toutes les tâches d’un cours en ligne\u00a0?'),
    q(
      'q5',
      'Vous devez envoyer à votre enseignant un devoir rédigé avec un traitement de texte. Que faites-vous\u00a0?',
      [
        'Coller une capture d’écran du devoir dans un message',
        'Joindre le fichier enregistré au message ou le déposer sur l’espace du cours',
        'L’imprimer et l’envoyer par la poste',
      ],
    ),
    q(
      'q6',
      'Savez-vous créer un dossier, ainsi que déplacer et renommer des fichiers sur votre ordinateur\u00a0?',
    ),
    q('q7', 'Une page du cours ne s’affiche pas. Que faut-il faire en premier\u00a0?', [
      'Réinstaller le système d’exploitation',
      'Recharger la page, puis vérifier la connexion ou essayer un autre navigateur',
      'Renoncer au devoir',
    ]),
    upload(
      'q8',
      'Déposez un court document (PDF, Word ou texte) contenant un paragraphe sur les raisons pour lesquelles vous souhaitez étudier en ligne.',
      'Un paragraphe suffit. Formats acceptés\u00a0: pdf, doc, docx, txt, jpg, jpeg, png.',
    ),
    q('q9', 'Pouvez-vous consacrer au moins 6\u00a0heures par semaine à un cours en ligne\u00a0?'),
    q('q10', 'Un devoir est à rendre dans deux semaines. Quand commencez-vous\u00a0?', [
      'La veille de la date limite',
      'Dès cette semaine, par étapes planifiées',
      'Quand un rappel arrive',
    ]),
    upload(
      'q11',
      'Téléchargez le planning d’étude hebdomadaire, remplissez-le pour une semaine réaliste, puis déposez-le.',
      'Remplissez une ligne par jour, enregistrez le fichier et déposez-le ici.',
    ),
    q('q12', 'Continuez-vous généralement à travailler quand personne ne vérifie votre progression\u00a0?'),
    q('q13', 'Où étudiez-vous le mieux\u00a0?', [
      'Dans un endroit calme, avec peu d’interruptions',
      'Devant la télévision',
      'N’importe où, en faisant autre chose en même temps',
    ]),
    q(
      'q14',
      'Est-il acceptable d’écrire à un enseignant entièrement en majuscules lorsque vous manquez de temps\u00a0?',
    ),
    q('q15', 'Vous ne comprenez pas un devoir. Que faites-vous\u00a0?', [
      'Attendre que la date limite soit passée',
      'Poser une question claire sur le forum du cours ou écrire à l’enseignant',
      'Copier le travail d’un camarade',
    ]),
    q('q16', 'Êtes-vous à l’aise pour participer à une visioconférence avec votre classe\u00a0?'),
  ]),
};

const pt: TranslatedTexts = {
  title: 'Avaliação de Preparação para a Educação a Distância',
  description:
    'Avalie sua preparação para estudar online: seu acesso à tecnologia, suas habilidades com o computador, seus hábitos de estudo e a forma como você se comunica online.',
  sections: {
    '1': { title: 'Acesso à tecnologia', description: 'O equipamento e a conexão com que você pode contar.' },
    '2': {
      title: 'Habilidades com o computador',
      description: 'Tarefas do dia a dia que um curso online exige de você.',
    },
    '3': {
      title: 'Hábitos de estudo e gestão do tempo',
      description: 'Como você planeja seu trabalho e mantém o ritmo.',
    },
    '4': { title: 'Comunicação online', description: 'Trabalhar online com professores e colegas.' },
  },
  questions: byId([
    q(
      'q1',
      'Você tem um computador (de mesa ou notebook) que possa usar para seus estudos todas as semanas?',
    ),
    q('q2', 'Você tem uma conexão de internet confiável em casa ou em outro lugar onde possa estudar?'),
    q('q3', 'Qual é a conexão mínima para assistir a aulas gravadas sem travamentos?', [
      'Uma conexão móvel com um pacote de dados pequeno',
      'Uma conexão de banda larga de pelo menos 5 Mbit/s',
      'Nenhuma conexão: as aulas podem ser assistidas offline',
    ]),
    q('q4', 'Só um celular é suficiente para realizar todas as tarefas de um curso online?'),
    q('q5', 'Você precisa enviar ao seu professor uma redação feita em um editor de texto. O que você faz?', [
      'Colar uma captura de tela da redação em uma mensagem',
      'Anexar o arquivo salvo à mensagem ou enviá-lo pela plataforma do curso',
      'Imprimi-la e enviá-la pelo correio',
    ]),
    q('q6', 'Você sabe criar uma pasta e mover e renomear arquivos no seu computador?'),
    q('q7', 'Uma página do curso não carrega. Qual é o melhor primeiro passo?', [
      'Reinstalar o sistema operacional',
      'Recarregar a página e depois verificar a conexão ou tentar outro navegador',
      'Desistir da atividade',
    ]),
    upload(
      'q8',
      'Envie um documento curto (PDF, Word ou texto) com um parágrafo sobre por que você quer estudar online.',
      'Um parágrafo basta. Formatos aceitos: pdf, doc, docx, txt, jpg, jpeg, png.',
    ),
    q('q9', 'Você consegue reservar pelo menos 6 horas por semana para um curso online?'),
    q('q10', 'Um trabalho deve ser entregue daqui a duas semanas. Quando você começa?', [
      'Na noite anterior ao prazo',
      'Nesta semana, em etapas planejadas',
      'Quando chegar um lembrete',
    ]),
    upload(
      'q11',
      'Baixe o planejador semanal de estudos, preencha uma semana realista e envie-o.',
      'Preencha uma linha por dia, salve o arquivo e envie-o aqui.',
    ),
    q('q12', 'Você costuma continuar trabalhando quando ninguém acompanha seu progresso?'),
    q('q13', 'Onde você estuda melhor?', [
      'Em um lugar tranquilo, com poucas interrupções',
      'Em frente à televisão',
      'Em qualquer lugar, fazendo outras coisas ao mesmo tempo',
    ]),
    q('q14', 'É aceitável escrever para um professor só com letras maiúsculas quando você está com pressa?'),
    q('q15', 'Você não entendeu uma atividade. O que você faz?', [
      'Esperar o prazo passar',
      'Fazer uma pergunta clara no fórum do curso ou escrever para o professor',
      'Copiar o trabalho de um colega',
    ]),
    q('q16', 'Você se sente à vontade para participar de uma videochamada com sua turma?'),
  ]),
};

const ar: TranslatedTexts = {
  title: 'تقييم الجاهزية للتعليم عن بُعد',
  description:
    'اكتشف مدى جاهزيتك للدراسة عبر الإنترنت: إمكانية وصولك إلى التكنولوجيا، ومهاراتك في استخدام الحاسوب، وعاداتك الدراسية، وطريقة تواصلك عبر الإنترنت.',
  sections: {
    '1': {
      title: 'الوصول إلى التكنولوجيا',
      description: 'ما يتوفر لديك من أجهزة واتصال بالإنترنت يمكنك الاعتماد عليه.',
    },
    '2': {
      title: 'مهارات استخدام الحاسوب',
      description: 'المهام اليومية التي يطلبها منك أي مقرر دراسي عبر الإنترنت.',
    },
    '3': { title: 'العادات الدراسية وإدارة الوقت', description: 'كيف تخطط لعملك وتواكب متطلباته.' },
    '4': { title: 'التواصل عبر الإنترنت', description: 'العمل مع المعلمين والزملاء عبر الإنترنت.' },
  },
  questions: byId([
    q('q1', 'هل لديك حاسوب (مكتبي أو محمول) يمكنك استخدامه في دراستك كل أسبوع؟'),
    q('q2', 'هل لديك اتصال موثوق بالإنترنت في المنزل أو في مكان آخر يمكنك الدراسة فيه؟'),
    q('q3', 'ما الحد الأدنى من الاتصال اللازم لمشاهدة المحاضرات المسجلة دون انقطاع؟', [
      'اتصال عبر شبكة الهاتف المحمول بباقة بيانات صغيرة',
      'اتصال واسع النطاق بسرعة 5 ميغابت في الثانية على الأقل',
      'لا حاجة إلى اتصال: يمكن مشاهدة المحاضرات دون إنترنت',
    ]),
    q('q4', 'هل يكفي الهاتف وحده لإنجاز جميع مهام المقرر الدراسي عبر الإنترنت؟'),
    q('q5', 'عليك أن ترسل إلى معلمك مقالًا كتبته ببرنامج لمعالجة النصوص. ماذا تفعل؟', [
      'ألصق لقطة شاشة للمقال في رسالة',
      'أرفق ملف المستند المحفوظ بالرسالة أو أرفعه إلى منصة المقرر',
      'أطبعه وأرسله بالبريد',
    ]),
    q('q6', 'هل تستطيع إنشاء مجلد، ونقل الملفات وإعادة تسميتها على حاسوبك؟'),
    q('q7', 'صفحة المقرر لا تفتح. ما أفضل خطوة أولى؟', [
      'أعيد تثبيت نظام التشغيل',
      'أعيد تحميل الصفحة، ثم أتحقق من الاتصال أو أجرب متصفحًا آخر',
      'أتخلى عن الواجب',
    ]),
    upload(
      'q8',
      'ارفع مستندًا قصيرًا (PDF أو Word أو ملفًا نصيًا) يتضمن فقرة واحدة عن سبب رغبتك في الدراسة عبر الإنترنت.',
      'تكفي فقرة واحدة. الصيغ المقبولة: pdf، doc، docx، txt، jpg، jpeg، png.',
    ),
    q('q9', 'هل يمكنك تخصيص 6 ساعات على الأقل أسبوعيًا لمقرر واحد عبر الإنترنت؟'),
    q('q10', 'موعد تسليم أحد الواجبات بعد أسبوعين. متى تبدأ العمل عليه؟', [
      'في الليلة التي تسبق موعد التسليم',
      'هذا الأسبوع، على مراحل مخطط لها',
      'عندما يصلني تذكير',
    ]),
    upload(
      'q11',
      'نزّل مخطط الدراسة الأسبوعي، واملأه بأسبوع واقعي، ثم ارفعه.',
      'املأ سطرًا واحدًا لكل يوم، واحفظ الملف، ثم ارفعه هنا.',
    ),
    q('q12', 'هل تواصل العمل عادةً حين لا يتابع أحد تقدمك؟'),
    q('q13', 'أين تكون دراستك أفضل؟', [
      'في مكان هادئ قليل المقاطعات',
      'أمام التلفاز',
      'في أي مكان، مع القيام بأشياء أخرى في الوقت نفسه',
    ]),
    q('q14', 'هل من المقبول أن تكتب إلى معلمك بالأحرف الكبيرة كلها عندما يضيق وقتك؟'),
    q('q15', 'لم تفهم المطلوب في أحد الواجبات. ماذا تفعل؟', [
      'أنتظر حتى يمضي الموعد النهائي',
      'أطرح سؤالًا واضحًا في منتدى المقرر أو أكتب إلى المعلم',
      'أنسخ عمل أحد زملائي',
    ]),
    q('q16', 'هل تشعر بالارتياح عند المشاركة في مكالمة فيديو مع زملائك في الصف؟'),
  ]),
};

export const SEED_TRANSLATIONS: ContentTranslations = { es, fr, pt, ar };
