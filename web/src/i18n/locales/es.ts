import type { Catalogue } from './en';

/** Spanish: neutral Latin American, formal register (usted), as the seeded assessment's texts are. */
const es: Catalogue = {
  // The page and its frame
  'app.title': 'Readiness — Evaluación',
  'app.heading': 'Evaluación de preparación para la educación a distancia',
  'app.loading': 'Cargando la evaluación',
  'app.redirecting': 'Redirigiendo',
  'app.tryAgain': 'Intentar de nuevo',
  'language.label': 'Idioma',
  percent: '{percentage, number} %',

  // Loading and starting
  'load.failed': 'No se pudo cargar la evaluación',
  'load.invalidLink': 'El enlace de invitación no es válido o ha vencido',
  'load.invalidLinkText':
    'Este enlace no abre ninguna evaluación: puede estar mal escrito, haber caducado o haber sido retirado.',
  'load.invalidLinkAsk':
    'Pida un enlace nuevo a la institución o al administrador que le envió la invitación.',
  'load.alreadyCompleted': '¡Ya completó la evaluación!',
  'start.started': 'La evaluación ha comenzado. ¡Mucha suerte!',
  'start.failed': 'No se pudo iniciar la evaluación',

  // The welcome page
  'welcome.previousAttempt': 'Intento anterior',
  'welcome.passed': 'Aprobado',
  'welcome.failed': 'No aprobado',
  'welcome.completedOn': 'Completado el {date}',
  'welcome.retake': 'Puede volver a realizar esta evaluación para mejorar su puntuación.',
  'welcome.timeLimit': 'Tiempo límite',
  'welcome.minutes': '{minutes, plural, one {# minuto} other {# minutos}}',
  'welcome.minutesSeconds':
    '{minutes, plural, one {# minuto} other {# minutos}} y {seconds, plural, one {# segundo} other {# segundos}}',
  'welcome.timeWithExtra':
    '{time}<0> incluido su tiempo adicional del {extra, number} % ({minutes, plural, one {# minuto} other {# minutos}} para todos)</0>',
  'welcome.questions': 'Preguntas',
  'welcome.questionsAcross':
    '{questions, plural, one {# pregunta} other {# preguntas}} en {sections, plural, one {# sección} other {# secciones}}',
  'welcome.passingScore': 'Puntuación para aprobar',
  'welcome.sections': 'Secciones',
  'welcome.sectionQuestions': '{count, plural, one {# pregunta} other {# preguntas}}',
  'welcome.start': 'Comenzar la evaluación',

  // The waiting room
  'waiting.title': 'Está en la fila para comenzar',
  'waiting.place': 'Usted es el número {place, number} en la fila',
  'waiting.estimateUnderMinute': 'Espera estimada: menos de un minuto',
  'waiting.estimateMinutes':
    'Espera estimada: aproximadamente {minutes, plural, one {# minuto} other {# minutos}}',
  'waiting.estimateHours': 'Espera estimada: aproximadamente {hours, plural, one {# hora} other {# horas}}',
  'waiting.notStarted':
    'Su tiempo aún no ha comenzado. Mantenga esta página abierta: su evaluación comenzará automáticamente cuando sea su turno.',
  'waiting.turnTitle': 'Es su turno',
  'waiting.turnText': 'Su tiempo comienza cuando pulse Comenzar la evaluación.',
  'waiting.documentTitle': 'Es su turno — Readiness',

  // The check before the clock starts
  'check.title': 'Antes de empezar',
  'check.ok': 'Correcto',
  'check.warning': 'Aviso',
  'check.info': 'Información',
  'check.connectionChecking': 'Conexión: comprobando…',
  'check.connectionUnreachable':
    'Conexión: no se pudo contactar con el servidor; compruebe su conexión antes de empezar',
  'check.connectionSlow':
    'Conexión: lenta ({seconds} s); sus respuestas se siguen guardando, aunque puede tardar un poco más',
  'check.connectionGood': 'Conexión: buena ({ms} ms)',
  'check.connectionFair':
    'Conexión: aceptable ({ms} ms); suficiente para la evaluación, aunque guardar puede tardar un momento',
  'check.clockInStep': 'Reloj: sincronizado con el servidor',
  'check.clockAheadMinutes':
    'Reloj: este dispositivo va {minutes, plural, one {# minuto} other {# minutos}} adelantado; el temporizador sigue el reloj del servidor, así que no tiene que hacer nada',
  'check.clockBehindMinutes':
    'Reloj: este dispositivo va {minutes, plural, one {# minuto} other {# minutos}} atrasado; el temporizador sigue el reloj del servidor, así que no tiene que hacer nada',
  'check.clockAheadHours':
    'Reloj: este dispositivo va {hours, plural, one {# hora} other {# horas}} adelantado; el temporizador sigue el reloj del servidor, así que no tiene que hacer nada',
  'check.clockBehindHours':
    'Reloj: este dispositivo va {hours, plural, one {# hora} other {# horas}} atrasado; el temporizador sigue el reloj del servidor, así que no tiene que hacer nada',
  'check.offlineKept': 'Respuestas sin conexión: se guardan en este dispositivo si se pierde la conexión',
  'check.offlineNotKept':
    'Respuestas sin conexión: este navegador no puede guardar respuestas sin conexión; manténgase conectado o salga de la navegación privada',
  'check.closedPage':
    'Si cierra la página, el tiempo sigue corriendo; sus respuestas guardadas se conservan y puede volver con el mismo enlace.',
  'check.finished': 'Comprobación terminada. {connection}. {clock}. {offline}.',

  // The practice question
  'practice.title': 'Pruebe una pregunta de práctica',
  'practice.note': 'Sin límite de tiempo y sin puntuación: solo muestra cómo funcionan las preguntas.',
  'practice.check': 'Comprobar respuesta',
  'practice.right': 'Correcto.',
  'practice.wrong': 'No exactamente. La respuesta es: {answer}.',
  'choice.yes': 'Sí',
  'choice.no': 'No',

  // The test screen
  'save.saved': 'Guardado',
  'save.saving': 'Guardando…',
  'save.offline': 'Sin conexión: las respuestas se guardan en este dispositivo',
  'timer.label': 'Tiempo restante',
  'timer.remaining': '{minutes, plural, one {Queda # minuto} other {Quedan # minutos}}',
  'progress.label': 'Progreso',
  'progress.complete': '{percent, number} % completado',
  'sections.nav': 'Secciones',
  'sections.select': 'Sección',
  'section.label': 'Sección {id}: {title}',
  'question.label': 'Pregunta {number}: ',
  'question.required': 'Obligatoria',
  'question.points': '{points, plural, one {# punto} other {# puntos}}',
  'question.download': 'Descargar {name}',
  'question.downloadFailed': 'No se pudo descargar. Inténtelo de nuevo.',
  'upload.choose': 'Elija un archivo<0> o arrástrelo y suéltelo aquí</0>',
  'upload.replace': 'Sustituya el archivo<0> o arrastre y suelte otro aquí</0>',
  'upload.hint': 'PDF, Word, texto o imagen (jpg, png), un solo archivo',
  'upload.progress': 'Subiendo, {percent, number} %',
  'upload.remove': 'Quitar',
  'upload.removeFile': 'Quitar {name}',
  'upload.fileType':
    'Solo se pueden subir archivos PDF, Word (doc, docx), de texto y de imagen (jpg, jpeg, png)',
  'upload.tooLarge': 'El archivo es demasiado grande para subirlo',
  'upload.failed': 'No se pudo subir el archivo',
  'footer.previous': 'Sección anterior',
  'footer.position': 'Sección {current} de {total}',
  'footer.next': 'Sección siguiente',
  'footer.submit': 'Enviar la evaluación',
  'gate.hint': 'Responda a todas las preguntas obligatorias de esta sección para continuar.',
  'gate.missing':
    '{count, plural, one {La pregunta {numbers} aún no tiene respuesta.} other {Las preguntas {numbers} aún no tienen respuesta.}}',
  'gate.goTo': 'Ir a la pregunta {number}',
  'summary.title': '¿Desea enviar su evaluación?',
  'summary.answered': '{answered} de {total} respondidas.',
  'summary.answeredSkipped':
    '{answered} de {total} respondidas; {skipped, plural, one {# pregunta opcional omitida} other {# preguntas opcionales omitidas}}.',
  'summary.skippedList': 'Sin responder; elija una para ir a ella:',
  'summary.skippedQuestion': 'Sección {section}, pregunta {number}',
  'summary.note':
    'Las preguntas opcionales omitidas no cuentan en contra de su puntuación. Una vez enviada, no podrá cambiar sus respuestas.',
  'summary.confirm': 'Enviar ahora',
  'summary.cancel': 'Seguir trabajando',
  'dialog.close': 'Cerrar',
  'test.extended':
    'Se le {minutes, plural, one {ha concedido # minuto más} other {han concedido # minutos más}}.',
  'test.ended': 'Su intento ha finalizado. Se está calificando con las respuestas guardadas.',
  'test.timeUp': '¡Se acabó el tiempo! Su evaluación se está enviando automáticamente.',
  'test.submitted': '¡Evaluación enviada correctamente!',
  'test.submitFailed': 'No se pudo enviar la evaluación',

  // The completion page
  'complete.calculating': 'Calculando su resultado…',
  'complete.calculatingNote':
    'Sus respuestas se han enviado correctamente. Esto suele tardar unos segundos; la página se actualizará sola.',
  'complete.congratulations': '¡Felicitaciones!',
  'complete.title': 'Evaluación completada',
  'complete.passed': 'Ha aprobado la Evaluación de preparación para la educación a distancia',
  'complete.passedNote': 'Ya puede comenzar con nosotros su formación a distancia.',
  'complete.failed': 'Esta vez no ha alcanzado la puntuación necesaria para aprobar',
  'complete.failedNote':
    'No se preocupe: puede volver a realizar la evaluación ahora mismo para mejorar su puntuación.',
  'complete.points': '{score, number} / {total, number} puntos',
  'complete.attempt': 'Intento',
  'complete.attemptNumber': 'Intento n.º {number}',
  'complete.code': 'Código de evaluación',
  'complete.status': 'Estado',
  'complete.statusPassed': 'APROBADO',
  'complete.statusFailed': 'NO APROBADO',
  'complete.required': 'Se requiere un {percentage, number} % para aprobar',
  'complete.pointsToPass': 'Puntos necesarios para aprobar: {needed, number} de {total, number}',
  'complete.retake': 'Repetir la evaluación',
  'complete.next': '¿Qué sigue ahora?',
  'complete.nextPassedMail': 'Recibirá un correo electrónico de confirmación con sus resultados.',
  'complete.nextPassedContact':
    'Nuestro equipo de admisiones se pondrá en contacto con usted para indicarle los próximos pasos.',
  'complete.nextPassedPrepare': 'Prepárese para su formación a distancia.',
  'complete.nextFailedReview': 'Repase las áreas en las que obtuvo una puntuación más baja.',
  'complete.nextFailedPractise': 'Practique sus habilidades informáticas y sus conocimientos técnicos.',
  'complete.nextFailedRetake': 'Vuelva a realizar la evaluación cuando lo considere oportuno.',
  'certificate.preparing':
    'Su certificado se está preparando. En unos instantes podrá descargarlo desde aquí.',
  'certificate.stillPreparing':
    'Su certificado todavía se está preparando; también se le enviará por correo electrónico.',
  'certificate.download': 'Descargar el certificado',
  'certificate.failed': 'No se pudo descargar el certificado',
  'certificate.openBadge': 'Descargar Open Badge',

  // Certificate verification
  'verify.enterCode': 'Introduzca el código de verificación impreso en el certificado',
  'verify.codeLabel': 'Código de verificación',
  'verify.submit': 'Verificar',
  'verify.formTitle': 'Verificar un certificado',
  'verify.anotherTitle': 'Comprobar otro código',
  'verify.formText':
    'Escriba el código de verificación impreso en el certificado para comprobar que se otorgó.',
  'verify.unknownTitle': 'Ningún certificado tiene este código',
  'verify.malformedText': 'Compruebe el código impreso en el certificado y escríbalo a continuación.',
  'verify.checking': 'Comprobando el certificado {code}…',
  'verify.validTitle': 'Certificado válido',
  'verify.awarded': 'Este certificado se otorgó a <0>{name}</0> el <1>{date}</1>.',
  'verify.assessment': 'Evaluación',
  'verify.score': 'Puntuación',
  'verify.unknownText':
    'Ningún certificado válido coincide con <0>{code}</0>. Compruebe el código impreso en el certificado; un certificado retirado ya no se puede verificar.',
  'verify.failedTitle': 'No se pudo comprobar el certificado',
  'verify.failedText': 'Se ha producido un error por nuestra parte. Inténtelo de nuevo en unos momentos.',
  'verify.credentialTitle': 'Comprobar una credencial',
  'verify.credentialText':
    'Pegue una credencial Open Badges (el texto del archivo .jwt) para comprobar que es auténtica.',
  'verify.credentialLabel': 'Credencial',
  'verify.credentialEmpty': 'Pegue una credencial',
  'verify.credentialSubmit': 'Comprobar credencial',
  'verify.credentialGenuine': 'Auténtica: emitida a <0>{name}</0> el <1>{date}</1> por {title}.',
  'verify.credentialRevoked': 'Revocada: esta credencial fue retirada y ya no es válida.',
  'verify.credentialAltered': 'No auténtica: esta credencial fue alterada o no se emitió aquí.',

  // A student path that does not exist
  'notFound.title': 'Página no encontrada',
  'notFound.text': 'La página que busca no existe o se ha trasladado.',
  'notFound.home': 'Ir al inicio',
  'notFound.back': 'Volver',

  // The shared components' own words
  'ui.cancel': 'Cancelar',
  'ui.loading': 'Cargando',
};

export default es;
