import type { Catalogue } from './en';

/**
 * Arabic: Modern Standard Arabic, formal, written right to left. It addresses the student in forms spelt
 * the same for a man and a woman (إجاباتك، يمكنك) and asks with 'يُرجى' rather than an imperative. Plurals have
 * Arabic's six forms; numbers keep Western digits (`INTL_LOCALES`).
 */
const ar: Catalogue = {
  // The page and its frame
  'app.title': 'Readiness — التقييم',
  'app.heading': 'تقييم الجاهزية للتعليم عن بُعد',
  'app.loading': 'جارٍ تحميل التقييم',
  'app.redirecting': 'جارٍ إعادة التوجيه',
  'app.tryAgain': 'إعادة المحاولة',
  'language.label': 'اللغة',
  percent: '{percentage, number}%',

  // Loading and starting
  'load.failed': 'تعذّر تحميل التقييم',
  'load.invalidLink': 'رابط الدعوة غير صالح أو منتهي الصلاحية',
  'load.invalidLinkText': 'هذا الرابط لا يفتح أي تقييم: ربما كُتب بشكل خاطئ أو انتهت صلاحيته أو أُلغي.',
  'load.invalidLinkAsk': 'اطلب رابطًا جديدًا من المؤسسة أو المسؤول الذي أرسل إليك الدعوة.',
  'load.alreadyCompleted': 'لقد أكملت التقييم من قبل!',
  'start.started': 'بدأ التقييم. بالتوفيق!',
  'start.failed': 'تعذّر بدء التقييم',

  // The welcome page
  'welcome.previousAttempt': 'المحاولة السابقة',
  'welcome.passed': 'ناجحة',
  'welcome.failed': 'غير ناجحة',
  'welcome.completedOn': 'أُكملت في {date}',
  'welcome.retake': 'يمكنك إعادة هذا التقييم لتحسين نتيجتك.',
  'welcome.timeLimit': 'المدة المحددة',
  'welcome.minutes':
    '{minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}}',
  'welcome.minutesSeconds':
    '{minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}} و{seconds, plural, zero {# ثانية} one {ثانية واحدة} two {ثانيتان} few {# ثوانٍ} many {# ثانية} other {# ثانية}}',
  'welcome.timeWithExtra':
    '{time}<0> بما في ذلك وقتك الإضافي البالغ {extra, number}% ({minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}} للجميع)</0>',
  'welcome.questions': 'الأسئلة',
  'welcome.questionsAcross':
    '{questions, plural, zero {# سؤال} one {سؤال واحد} two {سؤالان} few {# أسئلة} many {# سؤالًا} other {# سؤال}} في {sections, plural, zero {# قسم} one {قسم واحد} two {قسمين} few {# أقسام} many {# قسمًا} other {# قسم}}',
  'welcome.passingScore': 'درجة النجاح',
  'welcome.sections': 'الأقسام',
  'welcome.sectionQuestions':
    '{count, plural, zero {# سؤال} one {سؤال واحد} two {سؤالان} few {# أسئلة} many {# سؤالًا} other {# سؤال}}',
  'welcome.start': 'بدء التقييم',

  // The waiting room
  'waiting.title': 'أنت في قائمة الانتظار للبدء',
  'waiting.place': 'ترتيبك في قائمة الانتظار: {place, number}',
  'waiting.estimateUnderMinute': 'مدة الانتظار المتوقعة: أقل من دقيقة',
  'waiting.estimateMinutes':
    'مدة الانتظار المتوقعة: نحو {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}}',
  'waiting.estimateHours':
    'مدة الانتظار المتوقعة: نحو {hours, plural, zero {# ساعة} one {ساعة واحدة} two {ساعتين} few {# ساعات} many {# ساعة} other {# ساعة}}',
  'waiting.notStarted':
    'لم يبدأ احتساب وقتك بعد. يُرجى إبقاء هذه الصفحة مفتوحة: سيبدأ تقييمك تلقائيًا عندما يحين دورك.',
  'waiting.turnTitle': 'حان دورك',
  'waiting.turnText': 'يبدأ احتساب وقتك عند الضغط على زر بدء التقييم.',
  'waiting.documentTitle': 'حان دورك — Readiness',

  // The check before the clock starts
  'check.title': 'قبل البدء',
  'check.ok': 'سليم',
  'check.warning': 'تنبيه',
  'check.info': 'معلومة',
  'check.connectionChecking': 'الاتصال: جارٍ الفحص…',
  'check.connectionUnreachable': 'الاتصال: تعذّر الوصول إلى الخادم — يُرجى التحقق من اتصالك قبل البدء',
  'check.connectionSlow':
    'الاتصال: بطيء ({seconds} ثانية) — ما زالت إجاباتك تُحفظ، وقد يستغرق ذلك وقتًا أطول فحسب',
  'check.connectionGood': 'الاتصال: جيد ({ms} ملي ثانية)',
  'check.connectionFair': 'الاتصال: مقبول ({ms} ملي ثانية) — كافٍ لأداء التقييم، وقد يستغرق الحفظ لحظة',
  'check.clockInStep': 'الساعة: متوافقة مع ساعة الخادم',
  'check.clockAheadMinutes':
    'الساعة: ساعة هذا الجهاز متقدمة بمقدار {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}} — المؤقت يتبع ساعة الخادم، فلا حاجة إلى أي إجراء',
  'check.clockBehindMinutes':
    'الساعة: ساعة هذا الجهاز متأخرة بمقدار {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}} — المؤقت يتبع ساعة الخادم، فلا حاجة إلى أي إجراء',
  'check.clockAheadHours':
    'الساعة: ساعة هذا الجهاز متقدمة بمقدار {hours, plural, zero {# ساعة} one {ساعة واحدة} two {ساعتين} few {# ساعات} many {# ساعة} other {# ساعة}} — المؤقت يتبع ساعة الخادم، فلا حاجة إلى أي إجراء',
  'check.clockBehindHours':
    'الساعة: ساعة هذا الجهاز متأخرة بمقدار {hours, plural, zero {# ساعة} one {ساعة واحدة} two {ساعتين} few {# ساعات} many {# ساعة} other {# ساعة}} — المؤقت يتبع ساعة الخادم، فلا حاجة إلى أي إجراء',
  'check.offlineKept': 'الإجابات دون اتصال: تُحفظ على هذا الجهاز إذا انقطع اتصالك',
  'check.offlineNotKept':
    'الإجابات دون اتصال: لا يستطيع هذا المتصفح حفظ الإجابات دون اتصال — يُرجى الحفاظ على الاتصال بالإنترنت أو الخروج من وضع التصفح الخاص',
  'check.closedPage':
    'إذا أغلقت الصفحة: يستمر احتساب الوقت، وتبقى إجاباتك المحفوظة، ويمكنك العودة باستخدام الرابط نفسه.',
  'check.finished': 'اكتمل الفحص. {connection}. {clock}. {offline}.',

  // The practice question
  'practice.title': 'سؤال تدريبي للتجربة',
  'practice.note': 'دون وقت محدد ولا يُحتسب في النتيجة: يوضّح فقط طريقة عمل الأسئلة.',
  'practice.check': 'التحقق من الإجابة',
  'practice.right': 'إجابة صحيحة.',
  'practice.wrong': 'ليس تمامًا. الإجابة الصحيحة هي: {answer}.',
  'choice.yes': 'نعم',
  'choice.no': 'لا',

  // The test screen
  'save.saved': 'تم الحفظ',
  'save.saving': 'جارٍ الحفظ…',
  'save.offline': 'دون اتصال — الإجابات محفوظة على هذا الجهاز',
  'timer.label': 'الوقت المتبقي',
  'timer.remaining':
    'الوقت المتبقي: {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}}',
  'progress.label': 'التقدم',
  'progress.complete': 'اكتمل {percent, number}%',
  'sections.nav': 'الأقسام',
  'sections.select': 'القسم',
  'section.label': 'القسم {id}: {title}',
  'question.label': 'السؤال {number}: ',
  'question.required': 'إلزامي',
  'question.points':
    '{points, plural, zero {# نقطة} one {نقطة واحدة} two {نقطتان} few {# نقاط} many {# نقطة} other {# نقطة}}',
  'question.download': 'تنزيل {name}',
  'question.downloadFailed': 'تعذّر التنزيل. يُرجى المحاولة مرة أخرى.',
  'upload.choose': 'اختيار ملف<0> أو سحبه وإفلاته هنا</0>',
  'upload.replace': 'استبدال الملف<0> أو سحب ملف آخر وإفلاته هنا</0>',
  'upload.hint': 'ملف PDF أو Word أو نص أو صورة (jpg، png)، ملف واحد فقط',
  'upload.progress': 'جارٍ الرفع، {percent, number}%',
  'upload.remove': 'إزالة',
  'upload.removeFile': 'إزالة {name}',
  'upload.fileType': 'لا يمكن رفع إلا ملفات PDF وWord (doc، docx) والملفات النصية والصور (jpg، jpeg، png)',
  'upload.tooLarge': 'حجم الملف أكبر من أن يُرفع',
  'upload.failed': 'تعذّر رفع الملف',
  'footer.previous': 'القسم السابق',
  'footer.position': 'القسم {current} من {total}',
  'footer.next': 'القسم التالي',
  'footer.submit': 'إرسال التقييم',
  'gate.hint': 'يُرجى الإجابة عن جميع الأسئلة الإلزامية في هذا القسم للمتابعة.',
  'gate.missing':
    '{count, plural, zero {لا توجد أسئلة بلا إجابة.} one {السؤال {numbers} ما زال بلا إجابة.} two {السؤالان {numbers} ما زالا بلا إجابة.} few {الأسئلة {numbers} ما زالت بلا إجابة.} many {الأسئلة {numbers} ما زالت بلا إجابة.} other {الأسئلة {numbers} ما زالت بلا إجابة.}}',
  'gate.goTo': 'الانتقال إلى السؤال {number}',
  'summary.title': 'إرسال التقييم الآن؟',
  'summary.answered': 'تمت الإجابة عن {answered} من {total}.',
  'summary.answeredSkipped':
    'تمت الإجابة عن {answered} من {total}، وتُرك {skipped, plural, zero {# سؤال اختياري} one {سؤال اختياري واحد} two {سؤالان اختياريان} few {# أسئلة اختيارية} many {# سؤالًا اختياريًا} other {# سؤال اختياري}} دون إجابة.',
  'summary.skippedList': 'دون إجابة — اختر سؤالًا للانتقال إليه:',
  'summary.skippedQuestion': 'القسم {section}، السؤال {number}',
  'summary.note': 'لا تُحتسب الأسئلة الاختيارية المتروكة ضدك في النتيجة. ولا يمكنك تغيير إجاباتك بعد الإرسال.',
  'summary.confirm': 'الإرسال الآن',
  'summary.cancel': 'متابعة الإجابة',
  'dialog.close': 'إغلاق',
  'test.extended':
    'أُضيفت إلى وقتك {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}}.',
  'test.ended': 'انتهت محاولتك. يجري تصحيحها بناءً على إجاباتك المحفوظة.',
  'test.timeUp': 'انتهى الوقت! يجري إرسال تقييمك تلقائيًا.',
  'test.submitted': 'تم إرسال التقييم بنجاح!',
  'test.submitFailed': 'تعذّر إرسال التقييم',

  // The completion page
  'complete.calculating': 'جارٍ احتساب نتيجتك…',
  'complete.calculatingNote': 'أُرسلت إجاباتك بأمان. يستغرق ذلك عادةً بضع ثوانٍ، وستتحدّث الصفحة تلقائيًا.',
  'complete.congratulations': 'تهانينا!',
  'complete.title': 'اكتمل التقييم',
  'complete.passed': 'لقد اجتزت بنجاح تقييم الجاهزية للتعليم عن بُعد',
  'complete.passedNote': 'يمكنك الآن بدء رحلتك في التعليم عن بُعد معنا.',
  'complete.failed': 'لم تُستوفَ متطلبات النجاح هذه المرة',
  'complete.failedNote': 'لا داعي للقلق! يمكنك إعادة التقييم فورًا لتحسين نتيجتك.',
  'complete.points': '{score, number} / {total, number} نقطة',
  'complete.attempt': 'المحاولة',
  'complete.attemptNumber': 'المحاولة رقم {number}',
  'complete.code': 'رمز التقييم',
  'complete.status': 'الحالة',
  'complete.statusPassed': 'ناجحة',
  'complete.statusFailed': 'غير ناجحة',
  'complete.required': 'المطلوب: {percentage, number}% للنجاح',
  'complete.pointsToPass': 'النقاط المطلوبة للنجاح: {needed, number} من {total, number}',
  'complete.retake': 'إعادة التقييم',
  'complete.next': 'ما الخطوة التالية؟',
  'complete.nextPassedMail': 'ستصلك رسالة تأكيد بالبريد الإلكتروني تتضمن نتائجك.',
  'complete.nextPassedContact': 'سيتواصل معك فريق القبول لدينا بشأن الخطوات التالية.',
  'complete.nextPassedPrepare': 'الاستعداد لرحلتك في التعليم عن بُعد.',
  'complete.nextFailedReview': 'مراجعة المجالات التي حصلت فيها على درجات أقل.',
  'complete.nextFailedPractise': 'التدرّب على مهارات استخدام الحاسوب وتعزيز معرفتك التقنية.',
  'complete.nextFailedRetake': 'إعادة التقييم متى شعرت بالاستعداد.',
  'certificate.preparing': 'يجري إعداد شهادتك. ستكون جاهزة للتنزيل هنا بعد لحظات.',
  'certificate.stillPreparing': 'ما زال إعداد شهادتك جاريًا، وستُرسل إليك أيضًا بالبريد الإلكتروني.',
  'certificate.download': 'تنزيل الشهادة',
  'certificate.failed': 'تعذّر تنزيل الشهادة',
  'certificate.openBadge': 'تنزيل شارة Open Badge',

  // Certificate verification
  'verify.enterCode': 'يُرجى إدخال رمز التحقق المطبوع على الشهادة',
  'verify.codeLabel': 'رمز التحقق',
  'verify.submit': 'التحقق',
  'verify.formTitle': 'التحقق من شهادة',
  'verify.anotherTitle': 'التحقق من رمز آخر',
  'verify.formText': 'يُرجى إدخال رمز التحقق المطبوع على الشهادة للتأكد من أنها مُنحت فعلًا.',
  'verify.unknownTitle': 'لا توجد شهادة بهذا الرمز',
  'verify.malformedText': 'يُرجى التحقق من الرمز المطبوع على الشهادة وإدخاله أدناه.',
  'verify.checking': 'جارٍ التحقق من الشهادة {code}…',
  'verify.validTitle': 'شهادة صالحة',
  'verify.awarded': 'مُنحت هذه الشهادة إلى <0>{name}</0> بتاريخ <1>{date}</1>.',
  'verify.assessment': 'التقييم',
  'verify.score': 'النتيجة',
  'verify.unknownText':
    'لا توجد شهادة صالحة تطابق الرمز <0>{code}</0>. يُرجى التحقق من الرمز المطبوع على الشهادة؛ فالشهادة التي سُحبت لم يعد بالإمكان التحقق منها.',
  'verify.failedTitle': 'تعذّر التحقق من الشهادة',
  'verify.failedText': 'حدث خطأ من جهتنا. يُرجى المحاولة مرة أخرى بعد قليل.',
  'verify.credentialTitle': 'التحقق من اعتماد',
  'verify.credentialText': 'الصق اعتماد Open Badges (نص ملف ‎.jwt) للتحقق من أنه أصلي.',
  'verify.credentialLabel': 'الاعتماد',
  'verify.credentialEmpty': 'الصق اعتمادًا',
  'verify.credentialSubmit': 'تحقّق من الاعتماد',
  'verify.credentialGenuine': 'أصلي: صدر باسم <0>{name}</0> في <1>{date}</1> عن {title}.',
  'verify.credentialRevoked': 'مُلغى: سُحب هذا الاعتماد ولم يعد صالحًا.',
  'verify.credentialAltered': 'غير أصلي: عُدِّل هذا الاعتماد، أو لم يصدر من هنا.',

  // A student path that does not exist
  'notFound.title': 'الصفحة غير موجودة',
  'notFound.text': 'الصفحة التي تبحث عنها غير موجودة أو تم نقلها.',
  'notFound.home': 'الذهاب إلى الصفحة الرئيسية',
  'notFound.back': 'رجوع',

  // The shared components' own words
  'ui.cancel': 'إلغاء',
  'ui.loading': 'جارٍ التحميل',
};

export default ar;
