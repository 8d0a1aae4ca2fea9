module.exports = require('./_rest.js')["work"];
